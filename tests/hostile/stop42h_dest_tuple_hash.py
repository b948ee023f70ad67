# expect: TypeError
# dest= is an argument's name as text: a tuple holding a program object would have its __hash__ and __repr__ run by our code (dest in values, the Namespace's repr).
import argparse
class O:
    def __hash__(self):
        raise ValueError("ran")
    def __repr__(self):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--x", dest=(O(),))
print(p.parse_args([]))

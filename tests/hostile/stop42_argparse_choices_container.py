# expect: TypeError
# choices is a list, tuple or range: a program's container's __contains__ is not asked.
import argparse
class C:
    def __contains__(self, item):
        raise ValueError("ran")
    def __iter__(self):
        raise ValueError("ran")
    def __len__(self):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--m", choices=C())

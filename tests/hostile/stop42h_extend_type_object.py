# expect: TypeError|ForbiddenError
# action="extend" (nargs None) on the program object its type function returns: `[*value]` would run the object's __iter__ from our code.
import argparse
class O:
    def __iter__(self):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--e", action="extend", type=lambda s: O())
print(p.parse_args(["--e", "a"]).e)

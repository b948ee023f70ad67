# expect: TypeError|ForbiddenError
# action="count" on a program object default: `(value or 0) + 1` would run its __bool__ and __add__ from our code.
import argparse
class O:
    def __bool__(self):
        raise ValueError("ran")
    def __add__(self, other):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("-v", action="count", default=O())
print(p.parse_args(["-v"]).v)

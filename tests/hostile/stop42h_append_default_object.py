# expect: TypeError|ForbiddenError
# action="append" onto a program object default: `[*(value or []), ...]` would run its __bool__ and __iter__ from our code.
import argparse
class O:
    def __bool__(self):
        return True
    def __iter__(self):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--a", action="append", default=O())
print(p.parse_args(["--a", "q"]).a)

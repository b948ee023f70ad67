# expect: TypeError|ForbiddenError
# append_const onto a value the program put in the Namespace it passes: `(value or [])` would run its __bool__ from our code.
import argparse
class O:
    def __bool__(self):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--c", action="append_const", const=1)
ns = argparse.Namespace(c=O())
print(p.parse_args(["--c"], namespace=ns).c)

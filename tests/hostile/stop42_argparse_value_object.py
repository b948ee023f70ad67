# expect: ArgumentError
# A type function's program object checked against choices: refused before `in` would run
# its __eq__ from C.
import argparse
class V:
    def __eq__(self, other):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--m", type=lambda s: V(), choices=["a"])
p.parse_args(["--m", "a"])

# expect: ArgumentError
# choices is checked when added; the program's list changed after must not put a program object where `in` and repr() run its __eq__ and __repr__.
import argparse
class O:
    def __eq__(self, other):
        raise ValueError("ran")
    def __repr__(self):
        raise ValueError("ran")
c = ["a"]
p = argparse.ArgumentParser()
p.add_argument("--x", choices=c)
c.append(O())
p.parse_args(["--x", "b"])

# expect: ArgumentError|TypeError
# An ArgumentTypeError holding a program object: our message `f"...{error}"` would run its __str__.
import argparse
class O:
    def __str__(self):
        raise ValueError("ran")
    def __repr__(self):
        raise ValueError("ran")
def t(s):
    raise argparse.ArgumentTypeError(O())
p = argparse.ArgumentParser()
p.add_argument("--x", type=t)
p.parse_args(["--x", "b"])

# expect: ArgumentError|TypeError
# An ArgumentTypeError holding a tuple of 40,000 long strings: our `f"argument --x: {error}"` writes its 4 GB repr in one C call (check_printable is not asked).
import argparse
t = ("x" * 100000,) * 40000
def f(s):
    raise argparse.ArgumentTypeError(t)
p = argparse.ArgumentParser()
p.add_argument("--x", type=f)
p.parse_args(["--x", "b"])

# expect: KeyError
# argparse converts a text default (and never checks it against choices) only when the option is not given: here --n 3 is given, so "auto" is never read by int, and "Adam" is kept.
import argparse
p = argparse.ArgumentParser()
p.add_argument("--opt", type=str, default="Adam", choices=["adam", "sgd"])
p.add_argument("--n", type=int, default="auto")
a = p.parse_args(["--n", "3"])
assert a.opt == "Adam" and a.n == 3
raise KeyError("matches CPython")

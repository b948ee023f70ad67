# expect: ArgumentError|TypeError|LimitError
# choices=range(10**20): len() in our check raises OverflowError (an internal error); argparse takes it.
import argparse
p = argparse.ArgumentParser()
p.add_argument("--x", type=int, choices=range(10**20))
p.parse_args(["--x", "-5"])

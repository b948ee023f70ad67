# expect: ArgumentError
# add_mutually_exclusive_group(required=True): argparse refuses a command line giving none of them ("one of the arguments --a --b is required"); here required is silently ignored.
import argparse
p = argparse.ArgumentParser()
g = p.add_mutually_exclusive_group(required=True)
g.add_argument("--a", action="store_true")
g.add_argument("--b", action="store_true")
print(p.parse_args([]))

# expect: KeyError
# argparse's Namespace compares by its values: Namespace(a=1) == Namespace(a=1) is True (here False, silently).
import argparse
assert argparse.Namespace(a=1) == argparse.Namespace(a=1)
assert argparse.Namespace(a=1) != argparse.Namespace(a=2)
raise KeyError("matches CPython")

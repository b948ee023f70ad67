# expect: LimitError
# A command line's words are bounded: an unrecognised one is echoed in the error.
import argparse
p = argparse.ArgumentParser()
p.parse_args(["x" * 90000] * 1000)

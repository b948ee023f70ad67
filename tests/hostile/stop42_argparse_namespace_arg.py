# expect: TypeError
# parse_args(namespace=...) takes argparse's Namespace: a program object's __dict__ is not
# written by our code.
import argparse
class N:
    pass
p = argparse.ArgumentParser()
p.add_argument("--x", default=1)
print(p.parse_args([], namespace=N()).x)

# expect: TypeError
# dest= is text: a tuple dest becomes a Namespace key whose repr (names are not counted against the string limit, only values) is 4 GB written in one C call.
import argparse
t = ("x" * 100000,) * 40000
p = argparse.ArgumentParser()
p.add_argument("--x", dest=(t,), default=0)
print(p.parse_args([]))

# expect: ArgumentError
# choices grown after add_argument: "invalid choice" would repr every one into a message of 4 GB, past the memory a program may use, in one C call (bounded when added, never after).
import argparse
s = "x" * 100000
c = ["a"]
p = argparse.ArgumentParser()
p.add_argument("--x", choices=c)
c.extend([s] * 40000)
p.parse_args(["--x", "b"])

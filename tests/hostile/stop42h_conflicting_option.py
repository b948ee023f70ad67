# expect: ArgumentError
# argparse refuses an option string added twice ("conflicting option string: --seed"); here the first silently wins.
import argparse
p = argparse.ArgumentParser()
p.add_argument("--seed", type=int, default=1)
p.add_argument("--seed", type=int, default=2)
print(p.parse_args([]))

# expect: LimitError
# A parser's arguments are bounded: each is kept for the job.
import argparse
p = argparse.ArgumentParser()
for i in range(100000):
    p.add_argument(f"--a{i}")

# expect: TypeError
# choices are text or numbers: a program object's __eq__ would be asked from C by `in`.
import argparse
class C:
    def __eq__(self, other):
        raise ValueError("ran")
p = argparse.ArgumentParser()
p.add_argument("--m", choices=[C()])
p.parse_args(["--m", "x"])

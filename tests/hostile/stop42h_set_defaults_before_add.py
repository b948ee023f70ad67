# expect: KeyError
# set_defaults(lr=0.5) before add_argument("--lr") (no default=) gives the argument that default in argparse; here lr is silently None.
import argparse
p = argparse.ArgumentParser()
p.set_defaults(lr=0.5)
p.add_argument("--lr", type=float)
assert p.get_default("lr") == 0.5
assert p.parse_args([]).lr == 0.5
raise KeyError("matches CPython")

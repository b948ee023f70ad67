# expect: ForbiddenError|TypeError
# A program class built on argparse's parser would override the parser's private helpers,
# which the parser's groups call from our code.
import argparse
class P(argparse.ArgumentParser):
    def _add(self, names, options):
        raise ValueError("ran")
p = P()
p.add_argument_group("g").add_argument("--x")

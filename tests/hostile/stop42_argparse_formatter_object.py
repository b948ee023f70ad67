# expect: TypeError|ForbiddenError
# formatter_class is one of argparse's formatters: a program class is never made or called.
import argparse
class F:
    def __init__(self, *a, **k):
        raise ValueError("ran")
argparse.ArgumentParser(formatter_class=F)

# expect: ForbiddenError
# The parsed arguments take any name of the program's, never a dunder: setting __class__
# would change what they are.
import argparse
args = argparse.ArgumentParser().parse_args()
class Other:
    pass
args.__class__ = Other
print(type(args))

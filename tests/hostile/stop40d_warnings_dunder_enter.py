# expect: ForbiddenError
# entering and exiting a catch_warnings by hand, out of order (its saved filters restored after a later one's)
import warnings
a = warnings.catch_warnings()
b = warnings.catch_warnings()
a.__enter__()
b.__enter__()
a.__exit__(None, None, None)
b.__exit__(None, None, None)

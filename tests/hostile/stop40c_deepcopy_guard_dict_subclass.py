# expect: ForbiddenError
# a program dict subclass: deepcopy rebuilds it with y[key] = value and copies its __dict__
import copy
class D(dict):
    pass
print(copy.deepcopy(D(a=1)))

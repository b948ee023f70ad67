# expect: TypeError|ForbiddenError
# a generator (its frame) hidden in a slice
import copy
def g():
    yield 1
print(copy.deepcopy(slice(None, g())).stop)

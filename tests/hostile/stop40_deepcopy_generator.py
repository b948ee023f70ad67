# expect: ForbiddenError
# deepcopy of a generator object (its frame) and of a DataLoader
import copy
def g():
    yield 1
print(copy.deepcopy(g()))

# expect: ForbiddenError
import itertools
print(type(itertools.count()))

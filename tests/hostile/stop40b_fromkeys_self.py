# expect: ForbiddenError
# the real classmethod's __self__: Python's own
import collections
fk = collections.OrderedDict.fromkeys
print(fk.__self__)

# expect: ForbiddenError|TypeError
# Counter.fromkeys is not implemented in CPython; a dict subclass of the program would run its __init__ twice
import collections
print(collections.Counter.fromkeys("ab"))

# expect: LimitError
# Counter.get hashes its key in C: only set and dict methods bounded their keys
import collections
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
print(collections.Counter().get(a))

# expect: LimitError
# Counter hashes what it counts in C: a tuple nested 200,000 deep crashed the worker
import collections
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
c = collections.Counter([a])
print(len(c))

# expect: LimitError
# OrderedDict.update hashes its keys in C, unbounded before (the worker crashed)
import collections
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
d = collections.OrderedDict()
d.update([(a, 1)])
print(len(d))

# expect: LimitError
# a namedtuple hashes as a tuple does, but the nesting bound looked at exact tuples only:
# one holding a tuple nested 200,000 deep, used as a dict key, crashed the worker
import collections
a = ()
for i in range(100000):
    a = (a,)
for i in range(100000):
    a = (a,)
P = collections.namedtuple("P", "x")
d = {P(a): 1}
print(len(d))

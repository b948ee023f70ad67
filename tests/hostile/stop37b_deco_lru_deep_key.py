# expect: LimitError
# @functools.lru_cache on a method (today's decorated-method path): the cache hashes its arguments in C; a 360,000-deep nested tuple as the argument makes tuplehash recurse in C (stack overflow) unless the key is checked
import functools
t = ()
for j in range(4):
    for i in range(90000):
        t = (t,)
class A:
    @functools.lru_cache(maxsize=None)
    def m(self, x):
        return 1
a = A()
print(a.m(t))

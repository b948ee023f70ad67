# expect: LimitError
# functools.lru_cache / cache hash their arguments in C (_lru_cache_wrapper's key): a 360,000-deep nested tuple makes tuplehash recurse in C until the C stack overflows: SIGSEGV, the process dies (hash(t) itself is refused by check_nesting)
import functools
t = ()
for j in range(4):
    for i in range(90000):
        t = (t,)
@functools.cache
def m(x):
    return 1
print(m(t))

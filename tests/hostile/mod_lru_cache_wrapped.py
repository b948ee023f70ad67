# expect: ForbiddenError
import functools
@functools.lru_cache
def f(x):
    return x
print(f.__wrapped__)

# expect: AttributeError|ForbiddenError
import functools
p = functools.partial(print, 1)
print(p.func)

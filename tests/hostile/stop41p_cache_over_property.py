# expect: ForbiddenError|TypeError
# @functools.cache stacked over @property: CPython's TypeError (not callable); refused here
import functools
class A:
    @functools.cache
    @property
    def x(self):
        return 1
print(A().x)

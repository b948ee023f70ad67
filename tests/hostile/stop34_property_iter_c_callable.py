# expect: ForbiddenError|LimitError
# __iter__ as a property: iter(obj) calls what the property hands back, here a partial of
# itertools.repeat, an endless C iterator of zeros that any() read past the alarm (hung)
import functools
import itertools
class Endless:
    @property
    def __iter__(self):
        return functools.partial(itertools.repeat, 0)
print(any(Endless()))

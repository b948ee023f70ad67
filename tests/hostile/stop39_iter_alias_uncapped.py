# expect: LimitError|ForbiddenError
# `__iter__` bound by name to a plain method of the body (`__iter__ = it`) is still the
# program's __iter__: what it hands back (a C iterator) is read through the cap, as for
# `def __iter__`, never by C with no program code between items
import collections
import itertools


class A:
    def it(self):
        return itertools.repeat(0)

    __iter__ = it


collections.deque(A(), maxlen=1)

# expect: LimitError
# deque(obj, maxlen=1): C reads obj to its end; an endless C iterator behind a program's
# __iter__ was not capped (deque(itertools.count()) is)
import collections
import itertools
class Endless:
    def __iter__(self):
        return itertools.count()
dq = collections.deque(Endless(), maxlen=1)

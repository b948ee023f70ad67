# expect: LimitError
import collections, itertools
d = collections.deque(itertools.count())

# expect: LimitError
# dq += iterable is deque.extend, which reads it in C: an endless C iterator, even into a
# deque with a maxlen (C would read it for good)
import collections
import itertools
dq = collections.deque(maxlen=3)
dq += itertools.count()

# expect: LimitError
# A deque's class and a list's .__class__, handed to map: each read an endless iterator in C
import itertools
from collections import deque

print(next(map(deque, [itertools.count()])))
print(next(map([].__class__, [itertools.count()])))

# expect: LimitError
# type([]) handed the program Python's own list: map called it in C, which read an endless
# iterator past the alarm (the 1,000,000-item cap applies only to the program's calls)
import itertools

L = type([])
print(any(map(L, [itertools.repeat(0)])))

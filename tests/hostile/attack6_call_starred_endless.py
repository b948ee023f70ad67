# expect: LimitError
# f(*it) builds the argument tuple in C from an endless iterator
import itertools
print(*itertools.repeat("a"))

# expect: LimitError
# x[a:b] = it makes a list of it in C
import itertools
x = [0, 1, 2]
x[1:2] = itertools.count()

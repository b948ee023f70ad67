# expect: LimitError
import itertools
L = type([])
xs = L(itertools.count())
print(len(xs))

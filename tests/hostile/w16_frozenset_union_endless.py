# expect: LimitError
# frozenset.union reads an endless iterator in C, where no alarm reaches
import itertools
s = frozenset().union(itertools.count())
print(len(s))

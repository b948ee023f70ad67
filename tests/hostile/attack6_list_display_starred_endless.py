# expect: LimitError
# [*it] extends the list in C from an endless iterator
import itertools
print(len([*itertools.count()]))

# expect: LimitError
# d |= zip(count(), count()): a C iterator that never calls back into the program
import itertools
d = {}
d |= zip(itertools.count(), itertools.count())

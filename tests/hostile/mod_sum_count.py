# expect: LimitError
import itertools
print(sum(itertools.count()))

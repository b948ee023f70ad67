# expect: LimitError
import itertools
s = set(itertools.count())

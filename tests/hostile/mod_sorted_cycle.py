# expect: LimitError
import itertools
s = sorted(itertools.cycle([1, 2]))

# expect: LimitError
import itertools
x = list(itertools.repeat(0, 10 ** 9))

# expect: LimitError
import itertools
p = itertools.product(range(10 ** 5), range(10 ** 5))

# expect: LimitError
import itertools
s = ''.join(itertools.repeat('a', 10 ** 8))

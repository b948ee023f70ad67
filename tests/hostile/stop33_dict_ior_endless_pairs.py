# expect: LimitError
# d |= pairs is dict.update, which reads the iterable in C: an endless generator of pairs
# is read through the capped reader first
import itertools
d = {}
d |= ((i, i) for i in itertools.count())

# expect: LimitError
# unpacking with a starred target reads the iterator to its end in C
import itertools
first, *rest = itertools.count()

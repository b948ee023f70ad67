# expect: LimitError
# math.fsum (and math.prod) read their iterable to its end in C
import itertools
import math
print(math.fsum(itertools.repeat(1.0)))

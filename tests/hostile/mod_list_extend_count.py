# expect: LimitError
import itertools
x = []
x.extend(itertools.count())

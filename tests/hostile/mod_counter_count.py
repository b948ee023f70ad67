# expect: LimitError
import collections, itertools
c = collections.Counter(itertools.count())

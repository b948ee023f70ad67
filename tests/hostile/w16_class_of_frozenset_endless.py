# expect: LimitError
# frozenset reached as a class reads an endless iterator in C, where no alarm reaches
import itertools
F = frozenset().__class__
s = F(itertools.repeat(0))
print(len(s))

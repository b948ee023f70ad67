# expect: LimitError
# the same through a Counter's elements: a trillion items read in C
import collections
c = collections.Counter(a=10**12)
print("b" not in c.elements())

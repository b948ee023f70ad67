# expect: LimitError
# c += other in place, again and again with fresh keys: the Counter's size is checked
import collections
c = collections.Counter()
for k in range(100):
    c += collections.Counter(range(k * 90000, (k + 1) * 90000))

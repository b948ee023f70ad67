# expect: LimitError
# a maxlen=1 deque extended by range(10**9) through its instance: no memory, but 10^9 items read in C
import collections
d = collections.deque(maxlen=1)
d.extend(range(10**9))
print(d)

# expect: LimitError
# a deque extended by itself, doubling each time: refused at the item limit
import collections
d = collections.deque([0])
for i in range(28):
    d.extend(d)
print(len(d))

# expect: LimitError
# dq.extend(list) again and again: the pre-check of a list's extend covers lists only, and
# the deque was never size-checked after (18,000,000 items)
import collections
chunk = [0] * 900000
dq = collections.deque()
for i in range(20):
    dq.extend(chunk)
print(len(dq))

# expect: LimitError
# dq += dq doubles a deque in place: the size check after it covered lists, tuples, dicts
# and sets, not deques, so the deque passed the 1,000,000-item limit (57,600,000 items)
import collections
dq = collections.deque(range(900000))
for i in range(6):
    dq += dq
print(len(dq))

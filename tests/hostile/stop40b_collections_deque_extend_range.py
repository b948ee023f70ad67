# expect: LimitError
# deque.extend read off the class with a huge range: C reads 10^8 items in one call (no range bound for deques), past the wall limit
import collections
d = collections.deque()
collections.deque.extend(d, range(10**8))
print(len(d))

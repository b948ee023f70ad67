# expect: LimitError
# deque * n repeats in C: not checked as a repeat (list * n is), nor its size after
import collections
dq = collections.deque([0])
xs = dq * 10**8
print(len(xs))

# expect: LimitError
# the inner loop of a lazy generator expression is endless
import itertools

print(sum(1 for i in range(2) for j in itertools.count()))

# expect: LimitError
import operator
s = operator.mul("a", 10**8)
print(len(s))

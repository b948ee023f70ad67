# expect: LimitError
import operator
print(operator.pow(10, 10**6) > 0)

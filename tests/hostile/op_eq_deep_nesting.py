# expect: LimitError
import operator
a = []
for i in range(100000):
    a = [a]
print(operator.eq(a, a))

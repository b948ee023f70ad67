# expect: LimitError
# factorial of a million: 18M bits, refused from lgamma before C builds it
import math
print(math.factorial(10**6))

# expect: TypeError
# factorial of a float: CPython refuses it (no lgamma of 1e300)
import math
print(math.factorial(1e300))

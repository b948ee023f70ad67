# expect: LimitError
# factorial of a million: 18 million bits, seconds in C before any bound on the result
import math
print(math.factorial(10**6) % 7)

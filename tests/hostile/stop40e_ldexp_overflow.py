# expect: OverflowError
# ldexp by a huge exponent: CPython raises OverflowError
import math
print(math.ldexp(0.0, 10**300), math.ldexp(1.0, 10**300))

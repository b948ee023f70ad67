# expect: LimitError
# math.lcm of 20,000 4000-bit coprime ints: the product grows to 80M bits in one C call (CPython: 450 s for 5,000 args)
import math
b = 2**4000
a = [b - 1 - 2*i for i in range(20000)]
print(math.lcm(*a).bit_length())

# expect: LimitError
# math.prod(range(1, 20001)): a 257,000-bit integer; the int_bits limit is only checked on the program's own operators
import math
x = math.prod(range(1, 20001))
print(x.bit_length())

# expect: LimitError
# comb(10**7, 5 * 10**6): millions of bits built in C
import math
x = math.comb(10**7, 5 * 10**6)

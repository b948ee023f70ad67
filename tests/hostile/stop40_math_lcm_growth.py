# expect: LimitError
# lcm of many large numbers grows past the integer limit
import math
x = 1
for p in [2**4000 + 1, 2**4000 + 3, 2**4000 + 5]:
    x = math.lcm(x, p)

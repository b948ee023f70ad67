# expect: LimitError
# comb taken as a value and called by map: bounded as the direct call is
import math
print(list(map(math.comb, [10**6], [500000])))

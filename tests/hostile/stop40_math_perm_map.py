# expect: LimitError
# perm through map, as a value: the same bound
import math
print(list(map(math.perm, [10**6], [10**5])))

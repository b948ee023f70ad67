# expect: LimitError
# perm with a bool k and a huge n: n!/(n-1)! is n, fine; perm(n) is n! itself
import math
print(math.perm(10**5, True), math.perm(10**5))

# math's integer counts and float parts as combinatorics and numerics lessons use them:
# comb, perm, factorial, gcd, lcm, isqrt, frexp, ldexp, modf and remainder.
import math
print(math.comb(5, 2), math.perm(5, 2), math.perm(4), math.factorial(10), math.gcd(12, 18), math.lcm(4, 6), math.isqrt(17), math.frexp(8.0), math.ldexp(0.5, 4), math.modf(2.5), math.remainder(7, 3), math.comb(3, 5))
print(math.comb(1000, 500) > 0)
try:
    math.comb(-1, 2)
except ValueError as e:
    print(e)

# expect: LimitError
# np.random.poisson(lam=...) with one keyword operand, a list repeating a 4M-element
# array 20 times: the size rule checks no single operand, numpy makes 8e7 draws in C
import numpy as np
a = np.full(4000000, 1000.0)
print(np.random.poisson(lam=[a] * 20).shape)

# expect: LimitError
# a Generator method given one operand, a list repeating a 4M-element array: the size rule
# checks a broadcast only of two or more operands: numpy builds a 960 MB loc, 1.2e8 draws
import numpy as np
rng = np.random.default_rng(0)
a = np.zeros(4000000)
print(rng.normal([a] * 30).shape)

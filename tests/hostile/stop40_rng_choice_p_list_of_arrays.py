# expect: LimitError|ValueError
# choice(3, p=...) with p a list repeating a 4M-element array: numpy converts p (1.6 GB)
# before it finds p is not 1-dimensional
import numpy as np
a = np.zeros(4000000)
print(np.random.default_rng(0).choice(3, p=[a] * 50))

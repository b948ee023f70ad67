# expect: LimitError
# choice(a) with a list repeating a 4M-element array: numpy makes it an array (1.6 GB)
# before drawing one row; the choice rule checks only size (None here)
import numpy as np
rng = np.random.default_rng(0)
a = np.zeros(4000000)
print(rng.choice([a] * 50, size=1).shape)

# expect: LimitError|ValueError
# size=1 passes the size rule, but numpy converts the list-of-arrays n (1.2 GB) before it
# finds that n does not broadcast to size
import numpy as np
rng = np.random.default_rng(0)
a = np.ones(4000000, dtype=np.int64)
print(rng.binomial([a] * 40, 0.5, size=1))

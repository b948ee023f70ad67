# expect: LimitError
# the same skewed-p choice without replacement through the legacy RandomState
import numpy as np
rs = np.random.RandomState(0)
n = 4000000
p = 0.9999 ** np.arange(n)
p = p / p.sum()
print(rs.choice(n, 3000000, replace=False, p=p)[:3])

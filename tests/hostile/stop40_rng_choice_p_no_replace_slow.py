# expect: LimitError
# Generator.choice(n, k, replace=False, p=p) with a skewed p: numpy redraws in a loop,
# each round a cumsum over all n, and finds few new items a round: one C call of ~30 s
import numpy as np
rng = np.random.default_rng(0)
n = 4000000
p = np.zeros(n)
p[:n] = 0.9999 ** np.arange(n)
p = p / p.sum()
print(rng.choice(n, 3000000, replace=False, p=p)[:3])

# expect: ValueError
# poisson with lam over what numpy draws
import numpy as np
print(np.random.default_rng(0).poisson(1e19))

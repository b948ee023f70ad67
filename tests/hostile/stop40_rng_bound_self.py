# expect: ForbiddenError
# reach numpy's Generator through a bound method's __self__
import numpy as np
rng = np.random.default_rng(0)
f = rng.random
print(f.__self__.bit_generator.state)

# expect: ForbiddenError
# numpy's Generator members the Namespace leaves out: bit_generator, its state
import numpy as np
rng = np.random.default_rng(0)
print(rng.bit_generator.state)

# expect: LimitError
# RandomState.random_sample and np.random.standard_normal with a size over the limit
import numpy as np
print(np.random.RandomState(1).random_sample((4000001,)).shape)

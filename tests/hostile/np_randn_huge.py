# expect: LimitError
import numpy as np
print(np.random.randn(5000, 5000).shape)

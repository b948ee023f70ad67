# expect: LimitError
import numpy as np
print(np.linspace(0, 1, 10**9).shape)

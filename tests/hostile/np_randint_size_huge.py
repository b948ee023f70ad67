# expect: LimitError
import numpy as np
print(np.random.randint(0, 10, size=(10**5, 10**5)).shape)

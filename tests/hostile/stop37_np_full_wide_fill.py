# expect: LimitError
# np.full with a long string as the fill value: its width is each element's
import numpy as np
a = np.full(10000, "y" * 50000)
print(a.dtype)

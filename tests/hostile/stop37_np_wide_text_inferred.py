# expect: LimitError
# numpy sizes the text dtype from the longest string given: 1,000 elements of 400 KB each
import numpy as np
s = "x" * 100000
a = np.array([s] * 1000)
print(a.shape)

# expect: LimitError
# edgeitems=500 makes numpy show every element of a 1000 x 1000 complex array (threshold bypassed), 50 digits each: ~117 MB of text, ~20 s of formatting (numpy's arrayprint is Python, so the wall clock stops it)
import numpy as np
np.set_printoptions(edgeitems=500, precision=50, floatmode="fixed")
a = np.random.rand(1000, 1000) + 1j * np.random.rand(1000, 1000)
s = str(a)
print(len(s))

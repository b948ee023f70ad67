# expect: LimitError
# `+` of text arrays joins their strings: each doubling doubles the bytes of every element
import numpy as np
a = np.array(["ab" * 500] * 1000)
for i in range(20):
    a = a + a
print(a.dtype)

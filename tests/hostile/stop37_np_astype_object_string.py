# expect: ForbiddenError
# a.astype("O") names the object dtype as text, not as the refused `object`: numpy would then run Python arithmetic from C past the time limit
import numpy as np
b = np.zeros(200).astype("O")
L = [0] * 100000
for i in range(200):
    b[i] = L
print(len(b.sum()))

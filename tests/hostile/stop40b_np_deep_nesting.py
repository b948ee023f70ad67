# expect: LimitError|ValueError
# a list nested 50,000 deep handed to numpy
import numpy as np
x = [1.0]
for i in range(50000):
    x = [x]
print(np.asarray(x).ndim)

# expect: LimitError
# np.c_ of a nested list of 9M numbers (3000 shared rows): sized before numpy reads it.
import numpy as np
row = [0.0] * 3000
x = np.c_[[row] * 3000, np.zeros(3000)]

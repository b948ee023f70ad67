# expect: LimitError|ValueError
# 40 two-element inputs: 40 arrays of 2**40 elements each, counted before numpy builds them.
import numpy as np
a = np.arange(2.0)
g = np.meshgrid(*([a] * 40), sparse=True, copy=False)

# expect: LimitError
# minlength asks for the counts directly
import numpy as np

print(np.bincount(np.array([1]), minlength=10**10).shape)

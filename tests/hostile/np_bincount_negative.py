# expect: ValueError
# negative values with a huge positive one: refused as numpy refuses them, nothing made
import numpy as np

print(np.bincount(np.array([-5, 3])))

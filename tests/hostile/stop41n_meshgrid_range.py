# expect: LimitError
# HOLE: range inputs pass _plain as leaves and shape_of(range) is (), so _meshgrid counts each as 1: 2 x 9M elements made.
import numpy as np
g = np.meshgrid(range(3000), range(3000))
print(g[0].size)

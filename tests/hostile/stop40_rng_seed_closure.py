# expect: ForbiddenError
# RandomState.seed is our closure over the real RandomState: read its cells
import numpy as np
rs = np.random.RandomState(0)
print(rs.seed.__closure__[0].cell_contents)

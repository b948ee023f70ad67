# expect: ForbiddenError
# the legacy RandomState's get_state / set_state are left out
import numpy as np
rs = np.random.RandomState(0)
print(rs.get_state())

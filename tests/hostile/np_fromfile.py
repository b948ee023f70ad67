# expect: ForbiddenError
import numpy as np
print(np.fromfile("/etc/shadow"))

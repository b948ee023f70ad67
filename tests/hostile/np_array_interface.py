# expect: ForbiddenError
import numpy as np
print(np.ones(3).__array_interface__)

# expect: ForbiddenError
# type() of a text array's element is numpy's str_ class, which a program cannot name
import numpy as np
S = type(np.array(["a"])[0])
print(S("ab").maketrans)

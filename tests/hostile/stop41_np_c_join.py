# expect: ForbiddenError|AttributeError
# np.c_'s own join (the checked column_stack it holds) is not an attribute a program reads.
import numpy as np
j = np.c_._join
print(j)

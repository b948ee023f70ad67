# expect: ForbiddenError
# a formatter: the program's function called from numpy for each element
import numpy as np
np.set_printoptions(formatter={"float": lambda v: "x" * 10**6})
print(np.ones(4000))

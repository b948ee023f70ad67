# expect: ForbiddenError
# a formatter: the program's function called from numpy for each element
import numpy as np
np.set_printoptions(formatter={"float": lambda x: "x" * 1000})
print(np.zeros(10))

# expect: LimitError
# a huge range as numpy's operand
import numpy as np
print(np.asarray(range(10**8)).shape)

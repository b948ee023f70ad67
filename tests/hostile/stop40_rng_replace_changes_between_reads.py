# expect: LimitError|ForbiddenError|TypeError
# replace= a program object true when the rule reads it and false when numpy does: the
# legacy choice then permutes all of range(1e8)
import numpy as np
class Flip:
    def __init__(self):
        self.reads = 0
    def __bool__(self):
        self.reads += 1
        return self.reads == 1
rs = np.random.RandomState(0)
print(rs.choice(100000000, 3, replace=Flip()))

# expect: LimitError|RecursionError|ForbiddenError
# (now refused before numpy reads it: a program object is not an operand numpy may take)
# RandomState.shuffle of a program object whose __len__ (called by numpy from C) shuffles
# the same object again: recursion through numpy
import numpy as np
rs = np.random.RandomState(0)
class L:
    def __len__(self):
        rs.shuffle(self)
        return 3
    def __getitem__(self, i):
        return 0
    def __setitem__(self, i, v):
        pass
rs.shuffle(L())

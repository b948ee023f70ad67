# expect: LimitError|ForbiddenError
# (now refused before numpy reads it: a program object is not an operand numpy may take)
# RandomState.shuffle of a program object whose __len__ is 10**12: numpy calls its
# __getitem__/__setitem__ from C once per item
import numpy as np
class L:
    def __len__(self):
        return 10**12
    def __getitem__(self, i):
        return 0
    def __setitem__(self, i, v):
        pass
np.random.RandomState(0).shuffle(L())

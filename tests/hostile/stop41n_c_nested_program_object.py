# expect: ForbiddenError|TypeError
# A program object deep in a nested list inside np.c_.
import numpy as np


class F:
    def __float__(self):
        return 1.0


x = np.c_[[[1.0, F()]], np.zeros((1, 1))]

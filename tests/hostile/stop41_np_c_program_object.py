# expect: ForbiddenError|TypeError
# A program object inside np.c_ is not handed to numpy (which would read it from C).
import numpy as np


class Column:
    def __len__(self):
        return 10**9

    def __getitem__(self, i):
        return 1.0


x = np.c_[Column(), np.zeros(3)]

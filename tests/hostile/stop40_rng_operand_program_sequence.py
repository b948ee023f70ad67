# expect: LimitError|ForbiddenError|TypeError
# lam= a program sequence (not a list): the size rule reads no shape from it, and numpy
# reads it from C (its __len__ and __getitem__): 20 rows of a 4M-element array, 640 MB
import numpy as np
class Rows:
    def __init__(self):
        self.row = np.full(4000000, 1000.0)
    def __len__(self):
        return 20
    def __getitem__(self, i):
        if i >= 20:
            raise IndexError(i)
        return self.row
rng = np.random.default_rng(0)
print(rng.poisson(Rows()).shape)

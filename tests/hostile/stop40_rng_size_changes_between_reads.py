# expect: LimitError|ForbiddenError|TypeError
# size= a program object that is one element when the rule iterates it and 1.5e8 when
# numpy reads it again (numpy runs the program object from C)
import numpy as np
class Size:
    def __init__(self):
        self.reads = 0
    def __len__(self):
        return 1
    def __getitem__(self, i):
        if i >= 1:
            raise IndexError(i)
        self.reads += 1
        return 1 if self.reads == 1 else 150000000
    def __iter__(self):
        self.reads += 1
        return iter([1] if self.reads == 1 else [150000000])
rng = np.random.default_rng(0)
print(rng.poisson(1000000.0, size=Size()).shape)

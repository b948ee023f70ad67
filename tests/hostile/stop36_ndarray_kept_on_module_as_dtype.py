# expect: TypeError|ForbiddenError
# np.ndarray kept on a Module, handed to numpy where a dtype goes: only str and numpy's
# scalar types give their checked value a dtype; the class itself must never reach numpy
# to be called (np.ndarray(shape) is uninitialised memory)
import numpy as np
import torch.nn as nn


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.kind = np.ndarray


h = Holder()
a = np.zeros(4, dtype=h.kind)
print(a)

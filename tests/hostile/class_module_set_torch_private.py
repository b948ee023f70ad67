# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self._parameters = {}


m = M()

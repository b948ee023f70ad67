# expect: ForbiddenError
import torch
from torch import nn


class M(nn.Module):
    @property
    def x(self):
        return self.__dict__

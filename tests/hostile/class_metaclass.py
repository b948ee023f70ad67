# expect: ForbiddenError
import torch
from torch import nn


class Meta(nn.Module, metaclass=print):
    pass

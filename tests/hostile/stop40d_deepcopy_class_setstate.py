# expect: ForbiddenError
# a class attribute named __setstate__ (a callable the program holds): the copier calls made.__setstate__(state) for modules
import copy
import torch
class N(torch.nn.Module):
    __setstate__ = print
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(2))
n2 = copy.deepcopy(N())

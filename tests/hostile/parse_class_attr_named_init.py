# expect: ForbiddenError
# `__init__` is allowed as any Name: a class attribute `__init__ = build` replaces a Module's constructor with a plain function
import torch
from torch import nn
def build(*args):
    print("constructor replaced; nn.Module.__init__ never ran", len(args))
class M(nn.Module):
    __init__ = build
m = M(3)

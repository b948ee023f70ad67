# expect: ForbiddenError
# super(M, M).register_forward_hook: a name M defines gives Module's unbound function, usable on any module
import torch
from torch import nn
class M(nn.Module):
    def register_forward_hook(self, h):
        return None
hook = super(M, M).register_forward_hook
lin = nn.Linear(1, 1)
hook(lin, lambda mod, i, o: print("hooked a plain Linear"))
lin(torch.ones(1))

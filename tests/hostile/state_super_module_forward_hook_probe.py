# expect: ForbiddenError
# super(M, m) reaches the Module method M overrides only if a program may call it directly
import torch
from torch import nn
class M(nn.Module):
    def register_load_state_dict_post_hook(self, h):
        return None
    def forward(self, x):
        return x + 1
m = M()
super(M, m).register_load_state_dict_post_hook(lambda mod, keys: print("ran"))
print(m.load_state_dict(m.state_dict()))

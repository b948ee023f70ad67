# expect: ForbiddenError
# super() reaches register_state_dict_pre_hook / register_load_state_dict_post_hook
import torch
from torch import nn
class M(nn.Module):
    def register_load_state_dict_post_hook(self, h):
        return None
m = M()
super(M, m).register_load_state_dict_post_hook(lambda mod, keys: print("load hook ran"))
m.load_state_dict({})

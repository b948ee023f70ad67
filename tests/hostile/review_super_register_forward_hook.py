# expect: ForbiddenError
# super() reaches only what nn.Module admits directly: not its private hook registries
import torch.nn as nn


class M(nn.Module):
    def _register_load_state_dict_pre_hook(self, h):
        return super()._register_load_state_dict_pre_hook(h)


M()._register_load_state_dict_pre_hook(print)

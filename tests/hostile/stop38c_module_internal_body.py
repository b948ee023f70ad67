# expect: ForbiddenError
# the same as stop38c_module_internal_member, by the class body: `_forward_pre_hooks`
# (torch's, in each Module's __dict__) as a class attribute makes the instance's table
# settable, and emptying it drops the attention check. Refuse it in the body.
import torch
from torch import nn


class MHA(nn.MultiheadAttention):
    _forward_pre_hooks = None



m = MHA(4, 1, batch_first=True)
m._forward_pre_hooks = {}
q = torch.zeros(1, 6000, 4)
out, w = m(q, q, q, need_weights=False)
print(out.shape)

# expect: ForbiddenError
# `_forward_pre_hooks` is torch's own (in each Module's __dict__, not on the class, so
# hasattr(cls, name) misses it): made a class member, the instance's table becomes
# settable, and emptying it drops the attention check gradtrace keeps there as the last
# pre-hook; 36M scores are then computed past the 4M limit. Refuse the class member.
import torch
from torch import nn


class MHA(nn.MultiheadAttention):
    pass


setattr(MHA, "_forward_pre_hooks", None)
m = MHA(4, 1, batch_first=True)
m._forward_pre_hooks = {}
q = torch.zeros(1, 6000, 4)
out, w = m(q, q, q, need_weights=False)
print(out.shape)

# expect: ForbiddenError
# `_forward_pre_hooks` (torch's, in each Module's __dict__) made a property of the
# program's class: nn.Module.__init__ stores the real hook table through the program's
# setter, and the program then holds gradtrace's own attention guard
# (functools.partial(_check_attention, limit)), an object of the interpreter. Refuse the
# class member.
import torch
from torch import nn

store = {}


def get(self):
    return store["d"]


def put(self, v):
    store["d"] = v


class MHA(nn.MultiheadAttention):
    pass


MHA._forward_pre_hooks = property(get, put)
m = MHA(4, 1)
for k in store["d"]:
    print(store["d"][k])

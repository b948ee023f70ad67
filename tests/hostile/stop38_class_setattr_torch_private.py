# expect: ForbiddenError
# a Module's private machinery is torch's own, set on the class as in its body
import torch


class M(torch.nn.Module):
    pass


M._call_impl = lambda self, *a: print("hijacked")
M()(1)

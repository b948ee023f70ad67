# expect: ForbiddenError
# setattr(M, "training", prop) on a Module class: the same as `M.training = ...`, refused as in a class body.
import torch.nn as nn
class A:
    @property
    def p(self):
        return True
    @p.setter
    def p(self, v):
        print("setter ran inside torch", v)
class M(nn.Module):
    pass
setattr(M, "training", A.p)
M().train()

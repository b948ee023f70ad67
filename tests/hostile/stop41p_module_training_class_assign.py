# expect: ForbiddenError
# A program property (with setter) placed on a Module class after its statement (`M.training = A.p`): torch's Module.__init__ and eval() would run the program's setter inside torch.
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
M.training = A.p
m = M()
m.eval()

# expect: ForbiddenError
# a Module property named training with a setter: torch's train() would run it
import torch.nn as nn
class M(nn.Module):
    @property
    def training(self):
        return True
    @training.setter
    def training(self, v):
        print("set", v)
m = M()
m.train()

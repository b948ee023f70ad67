# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def __getattr__(self, name):
        return 1

print(M().x)

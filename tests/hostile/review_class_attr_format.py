# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    fmt = "{0.__globals__}".format


print(M().fmt(len))

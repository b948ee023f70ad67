# expect: ForbiddenError
import torch.nn as nn


class M(nn.Module):
    def __init_subclass__(cls):
        print(cls)

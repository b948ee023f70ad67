# expect: ForbiddenError
import torch.nn as nn
m = nn.Module()
m.add_module("_inner", nn.Linear(1, 1))

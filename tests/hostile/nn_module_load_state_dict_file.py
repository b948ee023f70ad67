# expect: ForbiddenError
import torch
from torch import nn
m = nn.Linear(2, 2)
m.load_state_dict(torch.load('sentinel.txt'))

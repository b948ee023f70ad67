# expect: ForbiddenError
# del reaches only what a program may set: not torch's tables in a Module
import torch
m = torch.nn.Linear(2, 2)
del m.training

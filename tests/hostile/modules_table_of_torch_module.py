# expect: ForbiddenError
# _modules of a torch layer (not the program's own class) stays out of reach
import torch
lin = torch.nn.Sequential(torch.nn.Linear(2, 2))
table = lin._modules
print(table)

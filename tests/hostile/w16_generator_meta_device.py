# expect: ForbiddenError
import torch
g = torch.Generator(device=torch.device("meta"))
print(g.device)

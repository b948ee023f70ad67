# expect: ForbiddenError
# a torch.Generator: a C object the walk does not admit
import copy
import torch
g = torch.Generator().manual_seed(1)
print(copy.deepcopy([g]))

# expect: ForbiddenError
# deepcopy of an optimizer: its state and param groups are torch objects the walk does not admit
import copy
import torch
w = torch.ones(2, requires_grad=True)
opt = torch.optim.Adam([w])
print(copy.deepcopy(opt))

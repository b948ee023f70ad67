# expect: ForbiddenError
# deepcopy taken as a value and called by map: the same walk, keyed on the callee
import copy
import torch
w = torch.ones(2, requires_grad=True)
print(list(map(copy.deepcopy, [torch.optim.SGD([w], lr=0.1)])))

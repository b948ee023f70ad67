# expect: ForbiddenError
# slice is not atomic to Python 3.11's deepcopy (copied by its __reduce__: start, stop, step deep-copied), but the walk takes it as atomic: an optimizer in a slice is copied, unwalked
import copy
import torch
w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
c = copy.deepcopy(slice(None, opt)).stop
print(c)

# expect: ForbiddenError
# an optimizer's bound step method: __func__.__globals__ of torch.optim reaches sys.modules
import torch
w = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
show = "{0.step.__func__.__globals__[torch].sys.modules[os].environ}".format
print(show(opt)[:60])

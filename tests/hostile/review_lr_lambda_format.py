# expect: ForbiddenError
import torch
w = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.LambdaLR(opt, "{0.__globals__}".format)

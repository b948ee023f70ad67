# expect: LimitError
# A scheduler calls lr_lambda(epoch) itself: lr_lambda=torch.Tensor made an unchecked,
# uninitialised tensor of the epoch's size
import torch

x = torch.ones(2, requires_grad=True)
opt = torch.optim.SGD([x], lr=0.1)
opt.param_groups[0]["initial_lr"] = 0.1
torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=torch.Tensor, last_epoch=10**9 - 1)

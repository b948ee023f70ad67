# expect: LimitError
# LambdaLR takes a list of functions, one per parameter group: a class in it reached torch
# as the real class (only the arguments themselves were checked), and the scheduler
# called torch.Tensor(last_epoch + 1): unsized and unzeroed (10**8: 800 MB made before
# the total-elements check; 10**9: 4 GB)
import torch

w = torch.nn.Parameter(torch.zeros(2))
opt = torch.optim.SGD([w], lr=1.0)
opt.param_groups[0]["initial_lr"] = 1.0
s = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[torch.Tensor], last_epoch=10**9)
print(opt.param_groups[0]["lr"].shape)

# expect: ForbiddenError
# a bound str.format kept in an optimizer param_group dict (a real dict a program may write) and called from it
import torch
w = torch.ones(1, requires_grad=True)
opt = torch.optim.SGD([w], lr=1.0)
opt.param_groups[0]["show"] = "{0.__globals__[torch].os.environ}".format
print(opt.param_groups[0]["show"](torch.nn.functional.relu)[:60])

# expect: ForbiddenError
import torch
m = torch.nn.Linear(2, 2)
setattr(m, "forward", print)
m(torch.ones(2))

# expect: LimitError
import torch
x = torch.ones(4000, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(torch.sin, (x,)))

# expect: LimitError
# autograd.grad makes a gradient per input, in C
import torch
x = torch.ones(1, requires_grad=True)
print(len(torch.autograd.grad((x * 2).sum(), [x] * 900000)))

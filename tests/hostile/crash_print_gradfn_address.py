# expect: ForbiddenError
# str.format of a grad_fn and a bound method: heap addresses of the server process in the output
import torch
x = torch.ones(1, requires_grad=True)
y = x * 2
print("{0} {1}".format(y.grad_fn, x.add))

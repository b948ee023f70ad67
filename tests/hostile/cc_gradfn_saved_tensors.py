# expect: ForbiddenError
# grad_fn private fields (_saved_self, _raw_saved_self) read through an aliased format
import torch
x = torch.ones(2, requires_grad=True)
y = x * x
show = "{0.grad_fn._saved_self} {0.grad_fn._raw_saved_self}".format
print(show(y))

# expect: ForbiddenError
# the SavedTensor behind _raw_saved_self would take hooks of any callable: not readable
import torch
x = torch.ones(3, requires_grad=True)
y = x * x
y.grad_fn._raw_saved_self.register_hooks(print, print)

# expect: ForbiddenError
import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
print(y.grad_fn._saved_self)  # admitted: lessons read saved tensors
print(y.grad_fn._register_hook_dict)

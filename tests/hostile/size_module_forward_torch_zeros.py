# expect: ForbiddenError
# m.forward = torch.zeros: replacing a torch Module's method is refused (ForbiddenError), so call_module never runs torch.zeros(3000, 3000)
import torch
m = torch.nn.Identity()
m.forward = torch.zeros
y = m(3000, 3000)
print(y.numel())

# expect: LimitError
# m.forward = torch.zeros: a Module call runs torch.zeros(3000, 3000) with no size check (call_module checks nothing)
import torch
m = torch.nn.Identity()
m.forward = torch.zeros
y = m(3000, 3000)
print(y.numel())

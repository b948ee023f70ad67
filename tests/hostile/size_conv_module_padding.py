# expect: LimitError
# nn.Conv2d(padding=1500) on a 1x1 input makes a 3001x3001 output inside the Module call
import torch
c = torch.nn.Conv2d(1, 1, 1, padding=1500)
y = c(torch.ones(1, 1, 1, 1))
print(y.numel())

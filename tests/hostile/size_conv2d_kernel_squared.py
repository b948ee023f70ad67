# expect: LimitError
# nn.Conv2d(50, 50, 50): an int kernel is squared, 50^4 = 6.25M weights, while the check sees 50*50*50
import torch
c = torch.nn.Conv2d(50, 50, 50)
print(c.weight.numel())

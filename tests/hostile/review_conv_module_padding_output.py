# expect: LimitError
import torch
c = torch.nn.Conv2d(1, 1, 1, padding=1500)
y = c(torch.ones(1, 1, 1, 1))

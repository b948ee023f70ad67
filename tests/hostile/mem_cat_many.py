# expect: LimitError
import torch
x = torch.ones(1000000)
print(torch.cat([x] * 20).shape)

# expect: LimitError
import torch
x = torch.ones(1000)
print(x.repeat(10000, 10000).shape)

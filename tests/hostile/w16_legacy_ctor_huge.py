# expect: LimitError
import torch
x = torch.DoubleTensor(50000, 50000)
print(x.shape)

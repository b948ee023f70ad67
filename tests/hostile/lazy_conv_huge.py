# expect: LimitError
import torch
conv = torch.nn.LazyConv2d(4000, kernel_size=30)
print(conv(torch.ones(1, 8, 31, 31)).shape)

# expect: LimitError
import torch
y = torch.Tensor.repeat(torch.ones(10), 10**8)

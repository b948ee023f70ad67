# expect: LimitError
import torch
print(torch.eye(100000).shape)

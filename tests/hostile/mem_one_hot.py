# expect: LimitError
import torch
import torch.nn.functional as F
print(F.one_hot(torch.tensor([10**9])).shape)

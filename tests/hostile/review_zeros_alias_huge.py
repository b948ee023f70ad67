# expect: LimitError
import torch
z = torch.zeros
y = z(10**5, 10**5)

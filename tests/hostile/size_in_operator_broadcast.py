# expect: LimitError
# `a in b` on tensors is Tensor.__contains__: (a == b).any() broadcasts 8000x8000 (64M) and returns a bool, no check
import torch
print(torch.ones(1, 8000) in torch.ones(8000, 1))

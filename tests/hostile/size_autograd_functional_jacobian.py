# expect: LimitError
# torch.autograd.functional.jacobian loops one backward pass per output into an outputs x inputs tensor
import torch
print(torch.autograd.functional.jacobian(lambda t: t * 2, torch.ones(50000)).shape)

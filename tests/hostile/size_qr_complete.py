# expect: LimitError
# torch.linalg.qr(mode="complete") of a 3000x1 matrix: Q is 9M elements, returned in a tuple
import torch
Q, R = torch.linalg.qr(torch.ones(3000, 1), mode="complete")
print(Q.numel())

# expect: LimitError
# torch.linalg.svd of a 3000x1 matrix returns a 3000x3000 U: tuple results get no per-tensor check
import torch
U, S, V = torch.linalg.svd(torch.ones(3000, 1))
print(U.numel())

# expect: LimitError
# torch.autograd.function.once_differentiable(torch.Tensor), on the torch-function fast
# path, wrapped the real class: its wrapper called torch.Tensor(n, m) in torch, unsized
# and unzeroed (f(100, 100) showed a freed buffer's values; f(30_000, 30_000) 3.6 GB)
import torch

f = torch.autograd.function.once_differentiable(torch.Tensor)
print((f(100, 100) != 0).sum(), f(30_000, 30_000).shape)

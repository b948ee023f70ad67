# expect: ForbiddenError|RuntimeError
# F.embedding(..., sparse=True) on a leaf: a sparse gradient reaches serialisation
import torch
w = torch.ones(5, 3, requires_grad=True)
y = torch.nn.functional.embedding(torch.tensor([1, 2]), w, sparse=True)
y.sum().backward()
print(w.grad.shape)

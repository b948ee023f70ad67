# `import torch.functional as F` (a tutorial writes it, meaning torch.nn.functional): the
# module holds torch's own einsum, norm, split, ...; what it lacks is an AttributeError.
import torch
import torch.functional as F

x = torch.linspace(-1.0, 1.0, 6, requires_grad=True)
m = x.view(2, 3)
e = F.einsum("ij,ij->i", m, m)
parts = F.split(x, 2)
n = F.norm(m)
print(e, len(parts), n)
print(F.einsum is torch.einsum, torch.functional.norm is torch.norm)
(e.sum() + n + parts[1].sum()).backward()
print(x.grad)
try:
    F.max_pool2d(m.unsqueeze(0), 2)
except AttributeError as error:
    print("AttributeError:", error)

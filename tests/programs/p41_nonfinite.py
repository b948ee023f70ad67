import torch

x = torch.tensor([0.0, 1.0, -1.0], requires_grad=True)
y = torch.log(x)
z = torch.sqrt(x)
w = 1 / x
print(y, z, w)
(y.sum() + z.sum()).backward()
print(x.grad)
print(torch.isinf(w), torch.isfinite(y), torch.nan_to_num(z))

# Elementwise maths on a leaf, with gradients through each op.
import torch

x = torch.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)
a = torch.sin(x) + torch.cos(x) * torch.exp(-x)
b = torch.log(x) + torch.sqrt(x) - x.tanh() + torch.sigmoid(x)
c = x.abs() * x.neg() + x.reciprocal() + x.pow(3) / 7 + x.rsqrt()
d = torch.clamp(x, min=0.8, max=2.5) + x.clamp(max=1.5) + torch.relu(x - 1)
e = torch.log1p(x) + torch.expm1(x / 10) + x.exp2() * 0.01 + torch.atan(x) + torch.asinh(x)
total = (a + b + c + d + e).sum()
total.backward()
print(total)
print(x.grad)
print(a.grad_fn, b.grad_fn.name())

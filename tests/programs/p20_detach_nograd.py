import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
yd = y.detach()
z = yd * x
with torch.no_grad():
    w = x * 10
    print(w.requires_grad)
u = w + x
print(yd.requires_grad, z.requires_grad, u.requires_grad)
(z.sum() + u.sum()).backward()
print(x.grad)
q = x.detach().requires_grad_()
r = (q * q).sum()
r.backward()
print(q.grad, q.is_leaf)
with torch.enable_grad():
    print((x * 1).requires_grad)
print(torch.is_grad_enabled())
x.requires_grad_(False)
print(x.requires_grad)

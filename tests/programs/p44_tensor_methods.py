import torch

x = torch.tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
y = x.mul(2).add(1).sub(0.5).div(3)
z = y.pow(2).sqrt().log().exp()
m = x.abs().max(dim=0).values
t = x.T
cl = x.clip(-1, 1)
fl = x.floor() + x.ceil() + x.round() + x.trunc()
loss = z.sum() + m.sum() + t.sum() + cl.sum() + x.sum(0).dot(torch.tensor([1.0, 2.0, 3.0]))
loss.backward()
print(y, z, m, t.shape, cl, fl)
print(x.grad)
print(x.shape, x.size(), x.ndim, x.dtype, x.device, x.requires_grad, x.is_leaf)
print(x.sum().item())

import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x * 2
y.add_(1)
y.mul_(3)
z = y.clone()
z += 1
z *= torch.tensor([1.0, 2.0, 3.0])
z[0] = 0.0
z.relu_()
out = z.sum()
out.backward()
print(y, z, out)
print(x.grad)
w = torch.zeros(3)
w.fill_(2.0)
w.sub_(torch.ones(3)).div_(2)
w.clamp_(min=0.4)
print(w, w.requires_grad)
print(y.grad_fn, z.grad_fn)

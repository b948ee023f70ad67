# The torch.* linear algebra that older tutorials write before torch.linalg existed
# (torch.svd, torch.det, torch.inverse, ...): their values, named tuples and gradients.
import torch

torch.manual_seed(3)
a = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()

u, s, v = torch.svd(a)
print(torch.svd(a.detach()))
print(s)
print(torch.det(a), torch.logdet(a))
sign, logabsdet = torch.slogdet(a)
print(sign, logabsdet)
q, r = torch.qr(a)
print(q.shape, r.shape)
inv = torch.inverse(a)
pinv = torch.pinverse(a)
cube = torch.matrix_power(a, 3)
expm = torch.matrix_exp(a / 10)

loss = (
    s.sum()
    + torch.det(a)
    + logabsdet
    + r.diagonal().abs().sum()
    + inv.sum()
    + pinv.pow(2).sum()
    + cube.mean()
    + expm.trace()
)
loss.backward()
print(loss)
print(a.grad)

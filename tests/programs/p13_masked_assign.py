import torch

torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
g = x.clone()
g[x < 0] = 0
h = x.detach().clone()
h[h > 0.5] = 1.0
mask = x > 0
m = x.masked_fill(~mask, -1.0)
sel = x[mask]
loss = g.sum() + m.pow(2).sum() + sel.sum()
loss.backward()
print(g)
print(h)
print(sel.shape, mask.sum())
print(x.grad)

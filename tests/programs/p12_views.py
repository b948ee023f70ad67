import torch

base = torch.arange(6.0, requires_grad=True)
v = base * 1
row = v.view(2, 3)
first = row[0]
col = row[:, 1]
sl = v[1:4]
st = v[::2]
print(first, col, sl, st)
loss = (first * 2).sum() + col.prod() + sl.sum() + (st ** 2).sum() + row[1, 2]
loss.backward()
print(base.grad)
t = torch.zeros(2, 3)
t[0] = torch.tensor([1.0, 2.0, 3.0])
t[1, 1:] = 5.0
t[:, 0] += 1
print(t)
print(t.select(1, 2), t.narrow(1, 0, 2), t.chunk(3, dim=1)[2], t.split(1)[1])

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
xs = torch.arange(10, dtype=torch.float32).unsqueeze(1)
ys = 3 * xs + 1
ds = TensorDataset(xs, ys)
loader = DataLoader(ds, batch_size=4)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
print(len(ds), len(loader), ds[3])
for epoch in range(2):
    for i, (bx, by) in enumerate(loader):
        loss = ((bx * w + b - by) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            b -= 0.01 * b.grad
        w.grad.zero_()
        b.grad.zero_()
        print(epoch, i, bx.shape[0], round(loss.item(), 4))
print(w, b)

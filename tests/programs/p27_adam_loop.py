import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.zeros(3, requires_grad=True)
target = torch.tensor([1.0, -2.0, 0.5])
opt = torch.optim.Adam([w], lr=0.1)
step = 0
while True:
    opt.zero_grad()
    loss = ((w - target) ** 2).sum()
    loss.backward()
    opt.step()
    step += 1
    if step >= 25:
        break
    if step % 2 == 0:
        continue
    if step % 8 == 1:
        print("step {} loss {:.5f}".format(step, loss.item()))
print(w)
print(w.grad)

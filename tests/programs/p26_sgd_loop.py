import torch
from torch import nn, optim

torch.manual_seed(0)
X = torch.randn(20, 2)
true_w = torch.tensor([[2.0], [-1.0]])
Y = X @ true_w + 0.5
model = nn.Linear(2, 1)
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
losses = []
for epoch in range(15):
    opt.zero_grad()
    loss = ((model(X) - Y) ** 2).mean()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    if epoch % 5 == 0:
        print(f"epoch {epoch}: loss {loss.item():.6f}")
print(model.weight.data, model.bias.data)
print(["%.4f" % l for l in losses[-3:]])

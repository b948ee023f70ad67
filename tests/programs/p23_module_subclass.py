import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


torch.manual_seed(0)
model = MLP(4, 8, 2)
x = torch.randn(5, 4)
out = model(x)
loss = out.pow(2).mean()
loss.backward()
print(out)
print(model.fc1.weight.grad)
print(model.fc2.bias.grad)
print(sum(p.numel() for p in model.parameters()))
for name, p in model.named_parameters():
    print(name, tuple(p.shape), p.grad.norm().item() > 0)

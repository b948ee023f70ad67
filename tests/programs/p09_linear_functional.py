import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(5, 3)
W = torch.randn(2, 3, requires_grad=True)
b = torch.zeros(2, requires_grad=True)
y = F.linear(x, W, b)
z = x @ W.t() + b
print(torch.allclose(y, z))
loss = F.relu(y).pow(2).mean()
loss.backward()
print(W.grad)
print(b.grad)
print(F.dropout(x, p=0.5, training=False).equal(x))

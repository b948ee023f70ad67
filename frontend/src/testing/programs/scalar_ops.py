import torch
a = torch.tensor(3.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
p = a * b
q = a / b
r = a ** 3
s = torch.tanh(b) + torch.sigmoid(a) - torch.exp(b) + torch.log(a) + (-a)
loss = p + q + r + s
loss.backward()

import torch

torch.manual_seed(0)
X = torch.randn(8, 3)
y = X.sum(dim=1, keepdim=True)
w = torch.randn(3, 1, requires_grad=True)
lr = 0.05
for it in range(20):
    loss = ((X @ w - y) ** 2).mean()
    loss.backward()
    g = w.grad
    w.data -= lr * g
    w.grad.zero_()
print(loss.item())
print(w)
print(w.grad)

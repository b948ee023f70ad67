# Seed 001: the loss of a linear regression written from scratch, as torchviz draws it.
# (The seed builds w with numpy; torch.normal does the same here.)
import torch

num_inputs = 2
num_examples = 1000
true_w = [2, -3.4]
true_b = 4.2
features = torch.randn(num_examples, num_inputs, dtype=torch.float32)
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.normal(0.0, 0.01, size=labels.size())

w = torch.normal(0.0, 0.01, size=(num_inputs, 1)).requires_grad_()
b = torch.zeros(1, dtype=torch.float32, requires_grad=True)


def linreg(X, w, b):
    return torch.mm(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.view(y_hat.size())) ** 2 / 2


batch_size = 10
indices = torch.randperm(num_examples)[:batch_size]
X = features.index_select(0, indices)
y = labels.index_select(0, indices)

net = linreg
loss = squared_loss
l = loss(net(X, w, b), y).sum()

print(X.is_leaf)
print(y.is_leaf)
print(w.is_leaf)
print(b.is_leaf)
print(l.is_leaf)
print(X.grad_fn)
print(l.grad_fn)
loss = l.mean()

# Source: github.com/d2l-ai/d2l-en (Dive into Deep Learning, sample code MIT-0), chapter_preliminaries/ndarray.md, its PyTorch cells.
# Changed: the cells joined in order; a cell's last expression, which the notebook displays,
# is printed. The two cells printing id(Z) (a memory address,
# different every run) print id(Z) == before_z instead.
import torch

x = torch.arange(12, dtype=torch.float32)
print(x)

print(x.numel())

print(x.shape)

X = x.reshape(3, 4)
print(X)

print(torch.zeros((2, 3, 4)))

print(torch.ones((2, 3, 4)))

print(torch.randn(3, 4))

print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))

print(X[-1], X[1:3])

X[1, 2] = 17
print(X)

X[:2, :] = 12
print(X)

print(torch.exp(x))

x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)

X = torch.arange(12, dtype=torch.float32).reshape((3,4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))

print(X == Y)

print(X.sum())

a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)

print(a + b)

before = id(Y)
Y = Y + X
print(id(Y) == before)

Z = torch.zeros_like(Y)
before_z = id(Z)
Z[:] = X + Y
print('id(Z) == before_z:', id(Z) == before_z)

before = id(X)
X += Y
print(id(X) == before)

A = X.numpy()
B = torch.from_numpy(A)
print(type(A), type(B))

a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))

"""numpy as tutorials use it next to torch: seeded data, array maths, to and from tensors."""

import numpy as np
import torch

np.random.seed(1337)
X = np.random.randn(12, 2)
y = (X[:, 0] * X[:, 1] > 0).astype(int)
y = y * 2 - 1
print(X.shape, X.dtype, y[:5], type(X).__name__, isinstance(X, np.ndarray))
print(np.round(X.mean(axis=0), 6), np.abs(X).max().round(6), y.sum())
ri = np.random.permutation(X.shape[0])[:4]
print(ri, X[ri].shape, np.arange(6).reshape(2, 3).T.tolist())
w_true = np.array([2.0, -3.4])
features = np.random.normal(0, 1, (20, 2))
labels = features @ w_true + 4.2
print(np.linspace(0, 1, 5), np.zeros((2, 2)), np.eye(2) * 3)
print(np.concatenate([np.ones(2), np.zeros(3)]), np.stack([np.ones(2), np.zeros(2)]).shape)
A = torch.arange(6.0).reshape(2, 3)
B = A.numpy()
C = torch.from_numpy(B)
print(type(B), type(C), C.dtype)
t = torch.tensor(features, dtype=torch.float32)
w = torch.zeros(2, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
loss = ((t @ w + b - torch.tensor(labels, dtype=torch.float32)) ** 2).mean()
loss.backward()
print(round(loss.item(), 4), w.grad, b.grad)
a = np.ones(3)
a += 2
a[1] = 7
print(a, np.where(a > 5, 1, 0), np.maximum(a, 4), float(np.sum(a)))

# Older tutorials (GAT, GCN, blog posts) prepare their data in numpy and hand it to the
# legacy constructors: torch.FloatTensor(array) and torch.LongTensor(array) are the
# array's numbers (they once came out as zeros here), torch.FloatTensor(2, 3) a size.
import numpy as np
import torch

features = np.array([[1.0, 0.0, 2.0], [0.5, 1.5, 0.0]], dtype=np.float32)
labels = np.array([2, 0])
edges = np.array([[0, 1], [1, 0]], dtype=np.int64)

x = torch.FloatTensor(features)
y = torch.LongTensor(labels)
e = torch.LongTensor(edges)
d = torch.DoubleTensor(np.linspace(0.0, 1.0, 3))
t = torch.Tensor(np.arange(4.0))
print(x, y, e, d, t, sep="\n")
print(torch.FloatTensor(2, 3).shape, torch.LongTensor([3, 4]))

w = torch.randn(3, 3, requires_grad=True)
logits = x @ w
loss = torch.nn.functional.cross_entropy(logits, y) + d.sum().float() * t.mean()
loss.backward()
print(loss.item())

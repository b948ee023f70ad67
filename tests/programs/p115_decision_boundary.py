# A classifier's decision boundary, as classification tutorials draw it: a grid made with
# np.meshgrid, its points joined with np.c_ into a batch, the model's classes on it drawn
# with contourf and the data with scatter (plt.cm's colormaps), the losses plotted.
import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
X = np.random.randn(40, 2).astype(np.float32)
y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.0).astype(np.int64)
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
inputs, labels = torch.from_numpy(X), torch.from_numpy(y)
losses = []
for step in range(30):
    loss = nn.functional.cross_entropy(model(inputs), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}")

h = 0.25
x_min, x_max = X[:, 0].min() - 1, X[:, 0].max() + 1
y_min, y_max = X[:, 1].min() - 1, X[:, 1].max() + 1
xx, yy = np.meshgrid(np.arange(x_min, x_max, h), np.arange(y_min, y_max, h))
grid = torch.tensor(np.c_[xx.ravel(), yy.ravel()], dtype=torch.float32)
with torch.no_grad():
    Z = model(grid).argmax(1).numpy().reshape(xx.shape)
print(xx.shape, grid.shape, Z.sum(), (model(inputs).argmax(1) == labels).float().mean().item())

fig = plt.figure(figsize=(6, 5))
plt.contourf(xx, yy, Z, cmap=plt.cm.Spectral, alpha=0.8)
plt.scatter(X[:, 0], X[:, 1], c=y, s=40, cmap=plt.cm.Spectral, edgecolors="k")
plt.xlim(xx.min(), xx.max())
plt.ylim(yy.min(), yy.max())
plt.title("decision boundary")
plt.figure()
plt.plot(losses, label="loss")
plt.legend()
a, b = np.meshgrid([1, 2, 3], [4.0, 5.0], indexing="ij")
print(a.tolist(), b.tolist(), np.c_[a.ravel(), b.ravel()].shape)

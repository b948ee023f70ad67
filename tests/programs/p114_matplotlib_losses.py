# A training script's plots, as tutorials end: the losses a loop kept, plotted with
# matplotlib's pyplot (a figure, labels, a legend, axes from subplots). Under CPython the
# figures are drawn off screen (Agg); here each line becomes a series of the Training panel.
import matplotlib
import matplotlib.pyplot as plt
import torch
import torch.nn as nn

matplotlib.use("Agg")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
x = torch.randn(32, 3)
y = (x[:, :1] * 2 - x[:, 1:2]).sin()
train_losses, grad_norms = [], []
for epoch in range(20):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    grad_norms.append(model[0].weight.grad.norm().item())
    opt.step()
    train_losses.append(loss.item())
    if epoch % 5 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")

plt.figure(figsize=(8, 4))
lines = plt.plot(train_losses, "r-", label="train loss", linewidth=2)
plt.plot(range(len(grad_norms)), grad_norms, label="grad norm", alpha=0.7)
plt.xlabel("epoch")
plt.ylabel("loss")
plt.title("Training")
plt.legend()
plt.grid(True)
plt.tight_layout()
plt.close()
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
ax1.plot(torch.tensor(train_losses))
ax1.set_yscale("log")
ax1.set_title("loss (log scale)")
ax2.plot(grad_norms, "o--")
ax2.set_xlabel("epoch")
plt.close(fig)
print(len(lines), f"{train_losses[-1]:.4f}")

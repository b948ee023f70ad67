# Data made with numpy's generators, as newer tutorials write it: a seeded
# np.random.default_rng gives a noisy linear dataset (normal, uniform, integers, choice,
# permutation, shuffle), the legacy RandomState gives the initial weights, and torch fits
# a line to it. Also each generator's other draws, seeding them again, and their prints.
import numpy as np
import torch

rng = np.random.default_rng(42)
print(rng)
n = 64
x = rng.uniform(-2.0, 2.0, size=(n, 1))
noise = rng.normal(0.0, 0.1, size=(n, 1))
y = 3.0 * x - 0.5 + noise
order = rng.permutation(n)
x, y = x[order], y[order]
train = rng.choice(n, size=48, replace=False)
print(x.shape, x.dtype, train[:5], rng.integers(0, 10, size=5), rng.integers(5))

X = torch.tensor(x[train], dtype=torch.float32)
Y = torch.tensor(y[train], dtype=torch.float32)
state = np.random.RandomState(0)
print(state)
w = torch.tensor(state.randn(1, 1), dtype=torch.float32, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1)
for step in range(30):
    loss = ((X @ w + b - Y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"w={w.item():.3f} b={b.item():.3f} loss={loss.item():.4f}")

print(rng.random(3).round(4), rng.standard_normal((2,)).round(4), rng.random(2, dtype=np.float32).dtype)
print(rng.exponential(2.0, 2).round(3), rng.poisson(3.0, 3), rng.binomial(10, 0.5, 3))
print(rng.integers(0, 5, 3, np.int32).dtype, rng.integers(1, 7, size=(2, 2), endpoint=True))
cards = list(range(8))
rng.shuffle(cards)
print(cards, rng.choice(["a", "b", "c"], size=4, p=[0.5, 0.25, 0.25]))
print(state.rand(2, 2).round(3), state.randint(0, 5, size=3), state.normal(size=2).round(4))
print(state.uniform(0, 1, 2).round(3), state.choice(5, 2), state.permutation(4), state.random_sample(2).round(3))
state.seed(1)
print(state.randn(2).round(4))
again = np.random.default_rng([1, 2, 3])
print(again.normal(size=2).round(4), round(np.random.default_rng(np.int64(7)).random(), 4))
np.random.seed(3)
print(np.random.standard_normal(2).round(4), np.random.exponential(1.0, 2).round(4), np.random.poisson(2.0, 3), np.random.binomial(4, 0.5, 2))
# Floyd's algorithm: a few of ten million without replacement, no range made.
print(rng.choice(10**7, 3, replace=False), rng.choice(np.arange(12).reshape(4, 3), 2, axis=0))
print(state.choice(np.array(6), 2, replace=False), rng.choice(torch.tensor(5), 2))

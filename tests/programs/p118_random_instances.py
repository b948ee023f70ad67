# Data-making code keeps a generator of its own: random.Random(seed), its draws, shuffle,
# sample, choices and state, apart from the module's generator (whose draws go on as if
# the instance were not there), as CPython gives them.
import random
import torch

random.seed(0)
rng = random.Random(42)
print(rng.random(), rng.randint(1, 10), rng.choice("abc"), rng.uniform(0, 1))
items = list(range(10))
rng.shuffle(items)
print(items, rng.sample(range(100), 3), rng.choices([1, 2, 3], k=4), rng.gauss(0, 1))
first = random.random()
other = random.Random(7)
other.random()
print(first, random.random())
state = rng.getstate()
x = rng.random()
rng.setstate(state)
print(x == rng.random())
rng.seed(3)
print(rng.randrange(100), random.Random(3).randrange(100))

# Noise drawn by the instance, into a regression's data.
xs = torch.tensor([rng.uniform(-1, 1) for _ in range(8)])
ys = 3 * xs + torch.tensor([rng.gauss(0, 0.1) for _ in range(8)])
w = torch.zeros(1, requires_grad=True)
loss = ((w * xs - ys) ** 2).mean()
loss.backward()
print(loss.item(), w.grad)

# Decorators on methods: @torch.no_grad() (nanoGPT's generate), @torch.no_grad,
# @torch.inference_mode(), @torch.enable_grad() on a Module's methods, the program's own
# decorator and functools.lru_cache on a plain class's, read from the instance or the class.
import torch
import functools
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.l = nn.Linear(2, 2)

    def forward(self, x):
        return self.l(x)

    @torch.no_grad()
    def generate(self, x, steps=2):
        for _ in range(steps):
            x = self(x)
        return x

    @torch.no_grad
    def bare(self, x):
        return self(x)

    @torch.inference_mode()
    def infer(self, x):
        return self(x)

    @torch.enable_grad()
    def grad_on(self, x):
        return self(x)


m = M()
x = torch.ones(1, 2)
y = m.generate(x)
print(y.requires_grad, m.bare(x).requires_grad, m.infer(x).is_inference(), m(x).requires_grad)
g = m.generate
print(g(x, steps=1).requires_grad, M.generate(m, x).requires_grad)
with torch.no_grad():
    print(m.grad_on(x).requires_grad)
print(torch.is_grad_enabled())


def logged(f):
    def wrapper(*args, **kwargs):
        print("call", f.__name__)
        return f(*args, **kwargs)

    return wrapper


class P:
    def __init__(self):
        self.calls = 0

    @logged
    def hello(self, who):
        self.calls += 1
        return "hi " + who

    @functools.lru_cache(maxsize=None)
    def square(self, n):
        self.calls += 1
        return n * n


p = P()
print(p.hello("a"), p.calls)
print(p.square(3), p.square(3), p.calls)
print(P.hello(p, "b"))


class Dictionary(object):
    def __init__(self):
        self.word2idx = {}

    def add(self, w):
        self.word2idx.setdefault(w, len(self.word2idx))


d = Dictionary()
d.add("a")
d.add("b")
d.add("a")
print(d.word2idx, isinstance(d, Dictionary))


class Sub(Dictionary, object):
    pass


print(len(Sub().word2idx))


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(1)
        self.w = nn.Parameter(torch.randn(3))

    @torch.no_grad()
    def forward(self, x):  # torch calls it: under no_grad as well
        return (self.w * x).sum()

    def loss(self, x):
        return (self.w * x).sum() ** 2

    @torch.no_grad()
    def step(self, lr):
        self.w -= lr * self.w.grad
        self.w.grad = None


t = Tiny()
xs = torch.tensor([1.0, 2.0, 3.0])
print(t(xs).requires_grad)
t.loss(xs).backward()
w_grad = t.w.grad.clone()
t.step(0.1)
print(w_grad, t.w, t.w.grad)

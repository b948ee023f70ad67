# Plain classes as tutorials write them: an accumulator (d2l), a data iterator with
# __len__/__getitem__/__iter__, a callable, a context manager, properties, static and
# class methods, inheritance, comparisons and hashing, `_` names of the program's own.
import torch


class Accumulator:
    """For accumulating sums over `n` variables."""

    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


class Dataset:
    def __init__(self, xs, ys):
        self._xs = xs
        self._ys = ys

    def __len__(self):
        return len(self._xs)

    def __getitem__(self, i):
        return self._xs[i], self._ys[i]


class Batches:
    def __init__(self, data, size):
        self.data = data
        self.size = size
        self._at = 0

    def __iter__(self):
        self._at = 0
        return self

    def __next__(self):
        if self._at >= len(self.data):
            raise StopIteration
        start = self._at
        self._at += self.size
        rows = [self.data[i] for i in range(start, min(start + self.size, len(self.data)))]
        return torch.stack([r[0] for r in rows]), torch.stack([r[1] for r in rows])


class Linear:
    count = 0

    def __init__(self, w, b):
        self.w = w
        self.b = b
        Linear.count += 1

    def __call__(self, x):
        return x @ self.w + self.b

    @property
    def shape(self):
        return tuple(self.w.shape)

    @staticmethod
    def describe(n):
        return f"{n} inputs"

    @classmethod
    def zeros(cls, n):
        return cls(torch.zeros(n, 1, requires_grad=True), torch.zeros(1, requires_grad=True))


class Scaled(Linear):
    def __init__(self, w, b, scale):
        super().__init__(w, b)
        self.scale = scale

    def __call__(self, x):
        return super().__call__(x) * self.scale

    def __repr__(self):
        return f"{self.__class__.__name__}(scale={self.scale})"


class Quiet:
    def __init__(self):
        self.entered = 0

    def __enter__(self):
        self.entered += 1
        return self

    def __exit__(self, kind, value, tb):
        return kind is ZeroDivisionError


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, other):
        return isinstance(other, Point) and (self.x, self.y) == (other.x, other.y)

    def __hash__(self):
        return hash((self.x, self.y))

    def __lt__(self, other):
        return (self.x, self.y) < (other.x, other.y)

    def __str__(self):
        return f"({self.x}, {self.y})"

    def __bool__(self):
        return bool(self.x or self.y)

    def __len__(self):
        return 2

    def __contains__(self, v):
        return v in (self.x, self.y)

    def __neg__(self):
        return Point(-self.x, -self.y)

    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)


torch.manual_seed(0)
xs = torch.randn(10, 3)
ys = xs @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1
data = Dataset(xs, ys)
model = Scaled(torch.zeros(3, 1, requires_grad=True), torch.zeros(1, requires_grad=True), 2.0)
metric = Accumulator(2)
for X, Y in Batches(data, 4):
    loss = ((model(X) - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        model.w -= 0.1 * model.w.grad
        model.b -= 0.1 * model.b.grad
        model.w.grad.zero_()
        model.b.grad.zero_()
    metric.add(loss.item() * len(X), len(X))
print(f"{metric[0] / metric[1]:.4f}", len(data), model, model.shape, Linear.count)
print(Linear.describe(3), Linear.zeros(2).shape, Linear.count)
w = model.w
b = model.b

q = Quiet()
with q:
    1 / 0
print("still here", q.entered)

ps = [Point(2, 1), Point(1, 3), Point(1, 2)]
print([str(p) for p in sorted(ps)], Point(1, 2) in set(ps), Point(1, 2) == Point(1, 2))
print(bool(Point(0, 0)), len(ps[0]), 3 in ps[1], str(-ps[0] + ps[1]))
_total = sum(p.x for p in ps)
print(_total, Accumulator.__name__, Point.__name__, Quiet().__class__.__name__)


def _helper(_a, _b=2):
    return _a * _b


print(_helper(3), _helper.__name__)
if __name__ == "__main__":
    print("run as a script")

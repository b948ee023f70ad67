# A function reads its own locals from its own scope only: a local read before it is
# bound (or after del) raises UnboundLocalError, as in CPython, rather than finding an
# outer name of the same name.
x = 1
def f():
    try:
        print(x)
    except UnboundLocalError as e:
        print("ULE:", e)
    x = 2
    return x
print(f())

def g():
    y = 1
    del y
    try:
        return y
    except NameError as e:
        return type(e).__name__ + ": " + str(e)
print(g())

def g2():
    z = 1
    del z
    try:
        return [z for _ in range(2)]
    except NameError as e:  # a comprehension reads it: CPython's words depend on its version
        return type(e).__name__ + ": " + str(e)
print(g2())

def h(n):
    total = 0
    squares = [i * i for i in range(n)]
    last = n - 1
    def inner():
        return total + n
    for k in squares:
        total += k
    return total, last, inner(), [total for _ in range(2)]
print(h(4))

def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    bump(); bump()
    return count
print(counter())

class Box:
    size = 3
    def area(self):
        return self.size * self.size
def make():
    width = 5
    class Local:
        w = width
        def get(self):
            return self.w + width
    return Local().get()
print(Box().area(), make())

def gen():
    acc = 0
    for i in range(3):
        acc += i
        yield acc
print(list(gen()))
import torch
def loss_of(w):
    import torch.nn.functional as F
    out = F.relu(w)
    with torch.no_grad():
        scale = out.sum()
    return out.sum() * scale
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
l = loss_of(w)
l.backward()
print(w.grad)

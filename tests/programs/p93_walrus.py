# The walrus operator where tutorials and modern code write it: a while loop that reads
# until None, an if that keeps what it tested, a loss tested and then used, in functions
# (where := makes a local), lambdas, nested functions with nonlocal, and global.
import torch

torch.manual_seed(0)
data = [torch.randn(2), torch.randn(2), None]
batches = iter(data)
w = torch.ones(2, requires_grad=True)
total = torch.zeros(())
while (batch := next(batches, None)) is not None:
    total = total + (w * batch).sum()
print(total, batch)

if (loss := total ** 2) > 0:
    loss.backward()
print(loss, w.grad)


def count_long(words):
    if (n := len(words)) > 2:
        return n
    return -n


print(count_long(["a", "b", "c"]), count_long(["a"]))

q = 5
set_q = lambda: (q := 2)
print(set_q(), q)

x = 1


def shadow():
    try:
        print(x)
    except NameError as e:
        print(type(e).__name__)
    (x := 2)
    return x


print(shadow(), x)


def outer():
    y = 0

    def inner():
        nonlocal y
        (y := y + 10)

    inner()
    return y


print(outer())
steps = 0


def step():
    global steps
    (steps := steps + 1)


step()
step()
print(steps, [y := 3, y**2], y)
z = 5
print(f"{(doubled := z * 2)}", doubled)

# `del` and `except ... as e` unbind a name where Python resolves it: a `global` name
# in the module, a `nonlocal` one in the enclosing function, otherwise the local scope.
import torch

w = torch.tensor([1.5, -0.5], requires_grad=True)
loss = None
caught = None


def step(x):
    global loss, caught
    try:
        loss = (w * x).pow(2).sum()
        torch.zeros(2) @ torch.zeros(3)
    except RuntimeError as caught:
        print("caught a", type(caught).__name__)
    loss.backward()


step(torch.tensor([2.0, 3.0]))
print(w.grad)
try:
    print(caught)
except NameError as error:
    print("unbound after the handler:", error)


def outer():
    scale = torch.tensor(2.0, requires_grad=True)

    def inner():
        nonlocal scale
        try:
            raise ValueError(float(scale))
        except ValueError as scale:
            print("inner caught", scale.args)

    inner()
    try:
        return scale
    except NameError:
        return "the nonlocal went with the handler"


print(outer())

accumulated = torch.tensor(0.0)


def clear():
    global accumulated
    del accumulated


clear()
try:
    print(accumulated)
except NameError as error:
    print("deleted global:", error)


def counter():
    count = 3

    def forget():
        nonlocal count
        del count

    forget()
    try:
        return count
    except NameError:
        return "deleted nonlocal"


print(counter())
try:
    del never_bound
except NameError as error:
    print(error)

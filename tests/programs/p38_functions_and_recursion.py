import torch


def poly(x, coeffs):
    out = torch.zeros_like(x)
    for k, c in enumerate(coeffs):
        out = out + c * x ** k
    return out


def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def apply_twice(f, v):
    return f(f(v))


x = torch.tensor([0.5, 1.5], requires_grad=True)
y = poly(x, [1.0, -2.0, 0.5, 0.25])
y.sum().backward()
print(y, x.grad)
print(fact(6), apply_twice(lambda t: t * 2, 3), apply_twice(torch.sqrt, torch.tensor(16.0)))

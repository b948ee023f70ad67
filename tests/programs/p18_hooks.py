import torch

seen = []


def double(grad):
    seen.append(grad.clone())
    return grad * 2


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
z = y + 1
h1 = y.register_hook(double)
h2 = z.register_hook(lambda g: print("z grad", g))
x.register_hook(lambda g: print("x grad", g))
out = z.sum()
out.backward(retain_graph=True)
print(x.grad)
print(len(seen), seen[0])
h1.remove()
x.grad.zero_()
out.backward()
print(x.grad)

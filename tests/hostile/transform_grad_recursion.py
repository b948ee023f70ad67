# expect: LimitError|RuntimeError
# a transform of a function that transforms itself, without end
import torch
from torch.func import grad
def f(x):
    return grad(f)(x).sum()
print(f(torch.ones(3)))

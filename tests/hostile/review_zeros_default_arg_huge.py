# expect: LimitError
import torch
def make(n, f=torch.ones):
    return f(n, n)


y = make(10**5)

# expect: TypeError|ForbiddenError
# a refused decorator is still evaluated first: its side effects (a hook registration) happen before the refusal
import torch
x = torch.ones(1, requires_grad=True)
@x.register_hook(lambda g: print("hook from a decorator expression"))
def f():
    return 1

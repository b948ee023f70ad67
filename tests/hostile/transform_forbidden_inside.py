# expect: ForbiddenError
# the function a transform runs is checked like any program code
import torch
print(torch.func.grad(lambda t: eval("t").sum())(torch.ones(3)))

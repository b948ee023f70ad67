# expect: ForbiddenError|AttributeError
import torch
print(hasattr(torch, "_C"))
x = getattr(torch, "_C")
print(x)

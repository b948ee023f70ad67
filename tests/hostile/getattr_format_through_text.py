# expect: ForbiddenError
import torch
f = getattr("{0.__globals__}", "format")
print(f(torch.nn.functional.relu))

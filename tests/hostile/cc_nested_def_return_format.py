# expect: ForbiddenError
# a function returns the bound str.format; the caller calls the returned value
import torch
def getter():
    return "{0.__globals__[torch].os.environ}".format
print(getter()(torch.nn.functional.relu)[:60])

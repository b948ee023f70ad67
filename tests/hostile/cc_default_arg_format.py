# expect: ForbiddenError
# str.format bound as a default argument and called by its parameter name
import torch
F = torch.nn.functional
def show(obj, fmt="{0.__globals__[torch].os.environ}".format):
    return fmt(obj)
print(show(F.relu)[:60])

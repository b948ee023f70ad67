# expect: ForbiddenError
# an aliased str.format called inside an f-string replacement field
import torch
F = torch.nn.functional
show = "{0.__globals__[torch].os.environ}".format
print(f"{show(F.relu)[:60]}")

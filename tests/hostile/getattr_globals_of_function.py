# expect: ForbiddenError
# getattr takes the name as text the parser never saw: it is checked at run time
import torch
g = getattr(torch.nn.functional.relu, "__glo" + "bals__")
print(g)

# expect: ForbiddenError
# tuple unpacking binds the bound format method to a fresh name
import torch
a, show = 1, "{0.__globals__[torch].os.environ}".format
print(show(torch.nn.functional.relu)[:60])

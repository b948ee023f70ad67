# expect: ForbiddenError
import torch
f = "{0.__globals__[torch].os.environ}".format
print(f(torch.nn.functional.relu))

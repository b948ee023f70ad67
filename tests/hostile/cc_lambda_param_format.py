# expect: ForbiddenError
# a lambda receives str.format as a parameter and calls it: no owner at the call site
import torch
F = torch.nn.functional
print((lambda f: f(F.relu))("{0.__globals__[torch].os.environ}".format)[:60])

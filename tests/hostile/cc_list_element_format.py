# expect: ForbiddenError
# str.format as a list element, called as [f][0](obj): the call syntax has no owner, so no field check
import torch
F = torch.nn.functional
print(["{0.__globals__[torch].os.environ}".format][0](F.relu)[:60])

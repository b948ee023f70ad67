# expect: ForbiddenError
# a comprehension target can be an attribute: `for m.forward in [...]` sets a Module's forward to str.format
import torch
m = torch.nn.Identity()
[0 for m.forward in ["{0.__globals__[torch].os.environ}".format]]
print(m(torch.nn.functional.relu)[:60])

# expect: ForbiddenError
# sorted(map(...)) of the bound str.format: the consuming() wrapper only checks the list length
import torch
F = torch.nn.functional
print(sorted(map("{0.__globals__[torch].os.environ}".format, [F.relu]))[0][:60])

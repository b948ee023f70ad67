# expect: ForbiddenError
# map() calls the real bound str.format from C: attribute walk in the field reaches os.environ
import torch
F = torch.nn.functional
print(list(map("{0.__globals__[torch].os.environ}".format, [F.relu]))[0][:60])

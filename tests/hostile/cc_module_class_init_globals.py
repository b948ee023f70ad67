# expect: ForbiddenError
# from a Module instance: __class__.__init__.__globals__ reaches torch and os.environ
import torch
m = torch.nn.Linear(1, 1)
show = "{0.__class__.__init__.__globals__[torch].os.environ}".format
print(show(m)[:60])

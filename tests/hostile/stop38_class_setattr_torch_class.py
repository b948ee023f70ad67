# expect: ForbiddenError
# torch's own classes are not the program's: nothing may be set on them
import torch

setattr(torch.nn.Linear, "forward", lambda self, x: x)

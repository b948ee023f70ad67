# expect: ForbiddenError
# the hooks object holds torch's wrappers of the program's hooks: none of it is readable
import torch
h = torch.autograd.graph.saved_tensors_hooks(print, print)
h.pack_hook(torch.ones(2))

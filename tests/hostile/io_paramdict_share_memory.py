# expect: ForbiddenError
# pd["share_memory"]() (ParameterDict getattr): parameters moved into shared-memory segments with open fds
import torch
pd = torch.nn.ParameterDict({"w": torch.nn.Parameter(torch.ones(4))})
pd["share_memory"]()
keep = pd["w"]
print("shared")

# expect: ForbiddenError
# 80 parameters moved to shared memory at once: one fd each, past the sandbox's 64-descriptor cap
import torch
pd = torch.nn.ParameterDict({"p" + str(i): torch.nn.Parameter(torch.ones(2)) for i in range(80)})
pd["share_memory"]()
print("shared 80")

# expect: ForbiddenError
# the job's device is chosen with the request; a program cannot move torch's default
import torch
torch.set_default_device("meta")
print(torch.ones(3))

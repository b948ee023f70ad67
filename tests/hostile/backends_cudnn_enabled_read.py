# expect: ForbiddenError
# cudnn's other members (enabled, version, flags) are not the job's
import torch

print(torch.backends.cudnn.version())

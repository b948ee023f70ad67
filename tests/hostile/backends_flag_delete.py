# expect: ForbiddenError
# deletes the job's switch from the shared stand-in, for later jobs to miss
import torch

del torch.backends.cudnn.benchmark

# expect: ForbiddenError
# replaces is_available on the shared stand-in, for later jobs to call
import torch

torch.backends.mps.is_available = lambda: True

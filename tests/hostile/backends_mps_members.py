# expect: ForbiddenError
# mps's other members (its allocator, its profiler) are not reached
import torch

torch.backends.mps.is_macos_or_newer(14, 0)

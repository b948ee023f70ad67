# expect: ForbiddenError
# the CUDA generators' state of other devices, which other jobs use
import torch

torch.cuda.set_rng_state(torch.zeros(16, dtype=torch.uint8), 1)

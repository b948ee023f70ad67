# expect: ForbiddenError
import torch
torch.cuda.set_per_process_memory_fraction(1.0)

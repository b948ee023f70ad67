# expect: ForbiddenError
# torch.backends' other switches change global torch state for every later job
import torch

torch.backends.cuda.matmul.allow_tf32 = True

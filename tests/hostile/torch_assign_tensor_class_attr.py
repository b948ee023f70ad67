# expect: ForbiddenError
import torch
torch.Tensor.backward = print

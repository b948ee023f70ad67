# expect: ForbiddenError
import torch.distributions.transforms as T

# expect: ForbiddenError
from torch.nn import _reduction

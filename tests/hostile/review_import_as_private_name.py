# expect: ForbiddenError
import torch as __loader__

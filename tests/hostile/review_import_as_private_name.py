# expect: ForbiddenError
import torch as _torch

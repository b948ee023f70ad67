# expect: ForbiddenError
# Constraints are torch s objects (and a process-wide registry keyed on them).
import torch
from torch.distributions import Normal

print(Normal(0.0, 1.0).arg_constraints)

# expect: ForbiddenError
# A process-wide switch: it would outlive the job.
import torch
from torch.distributions import Normal

Normal.set_default_validate_args(False)

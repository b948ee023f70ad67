# expect: TypeError
# Independent wraps one of the families: torch would call any object s methods.
import torch
from torch.distributions import Independent


class Fake:
    batch_shape = torch.Size([2])
    event_shape = torch.Size([])


d = Independent(Fake(), 1)

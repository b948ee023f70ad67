# expect: ForbiddenError
from dataclasses import dataclass
import torch


@dataclass
class Net(torch.nn.Module):
    width: int = 3

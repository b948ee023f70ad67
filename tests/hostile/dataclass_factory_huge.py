# expect: LimitError
from dataclasses import dataclass, field
import torch


@dataclass
class Holder:
    big: object = field(default_factory=lambda: torch.ones(100000, 100000))


print(Holder())

# expect: TypeError|ForbiddenError
# A dataclass's made __repr__, read by name and called on a torch Module, reads the fields' names off it with Python's getattr: torch's internals (_parameters, hooks) that the program may not read.
import torch.nn as nn
from dataclasses import dataclass
@dataclass
class D:
    _forward_pre_hooks: int = 1
    _parameters: int = 2
text = D.__repr__(nn.Linear(2, 2))
if "OrderedDict" in text or "Parameter" in text:
    raise ValueError("ran: " + text[:40])
raise KeyError("the repr did not read torch's internals")

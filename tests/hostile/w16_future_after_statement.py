# expect: SyntaxError
import torch
from __future__ import annotations
print(torch.ones(1))

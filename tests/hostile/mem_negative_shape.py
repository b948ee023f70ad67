# expect: RuntimeError|LimitError
import torch
x = torch.zeros(-5)

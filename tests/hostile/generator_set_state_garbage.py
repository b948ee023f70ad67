# expect: RuntimeError|TypeError
import torch
g = torch.Generator()
g.set_state(torch.zeros(7, dtype=torch.uint8))

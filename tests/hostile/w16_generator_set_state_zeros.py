# expect: RuntimeError
# a state of the right size but no valid Mersenne Twister in it: torch refuses it
import torch
g = torch.Generator()
n = g.get_state().numel()
g.set_state(torch.zeros(n, dtype=torch.uint8))
print(torch.rand(3, generator=g))

# expect: LimitError
# dict.fromkeys of a 1,000,000-element tensor: torch would unbind a million 0-d tensors in one call
import torch
d = dict.fromkeys(torch.zeros(1000000))
print(len(d))

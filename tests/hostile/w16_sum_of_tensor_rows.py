# expect: LimitError
# sum() iterates a tensor in C: torch unbinds all 4,000,000 rows at once (2.7 GB of
# tensor objects) and the adds run in C past the alarm (11 s against 2)
import torch
x = torch.ones(4000000)
print(sum(x))

# expect: LimitError
# sorted() of a million scalar tensors: some 20,000,000 torch comparisons in C, past every
# time check (11 s against a 5 s limit)
import torch

ts = [torch.tensor(0.0), torch.tensor(1.0)] * 500000
print(len(sorted(ts)))

# expect: LimitError
# tolist() copies kept in a dict, each under sequence_items: 12M Python floats in all (about 400 MB), bounded by memory_mb
import torch
x = torch.arange(1000000.0)
keep = {}
for i in range(12):
    keep[i] = x.tolist()
print(len(keep))

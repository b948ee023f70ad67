# expect: LimitError
# one-element views of 2M-element tensors, deep-copied again and again: each copy holds the whole storages (the copies count by storage, not by their one element)
import copy
import torch
views = [torch.ones(2_000_000)[:1] for i in range(7)]
keep = []
for i in range(10):
    keep.append(copy.deepcopy(views))
print(len(keep))

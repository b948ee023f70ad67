# expect: LimitError
# iterating a tensor is bounded by its rows; unbind() makes the same rows unbounded
import torch
rows = torch.ones(4_000_000).unbind()
print(len(rows))

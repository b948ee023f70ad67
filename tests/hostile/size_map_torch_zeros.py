# expect: LimitError
# torch.zeros through map(): 9M elements inside a list, no tensor check
import torch
out = list(map(torch.zeros, [3000], [3000]))
print(out[0].numel())

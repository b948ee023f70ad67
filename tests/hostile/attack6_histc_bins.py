# expect: LimitError
# histc makes one element per bin: 200 million bins were made (800 MB, seconds) before
# the size of the result was checked, as only the inputs' sizes bounded it
import torch
print(torch.ones(3).histc(bins=200_000_000).shape)

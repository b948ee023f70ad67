# expect: LimitError
# repeat_interleave's output size is the sum of the repeats' values, not their count; hidden in a map so no post-check
import torch
out = list(map(torch.repeat_interleave, [torch.ones(1)], [torch.tensor([5000000])]))
print(out[0].numel())

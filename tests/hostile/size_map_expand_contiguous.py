# expect: LimitError
# x.expand through map(), then .contiguous() through map(): a 4M copy, unchecked
import torch
x = torch.ones(2000, 1)
v = list(map(x.expand, [2000], [2000]))[0]
c = list(map(torch.clone, [v]))[0]
print(c.numel())

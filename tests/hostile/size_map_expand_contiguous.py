# expect: LimitError
# x.expand through map(), then .contiguous() through map(): a 9M copy, unchecked
import torch
x = torch.ones(3000, 1)
v = list(map(x.expand, [3000], [3000]))[0]
c = list(map(torch.clone, [v]))[0]
print(c.numel())

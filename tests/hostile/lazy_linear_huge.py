# expect: LimitError
# a lazy layer's weight is made at its first call, sized by the input: checked then
import torch
m = torch.nn.LazyLinear(100000)
print(m(torch.ones(1, 100000)).shape)

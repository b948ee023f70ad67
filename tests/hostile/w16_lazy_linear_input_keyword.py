# expect: LimitError
# the size check saw only positional inputs; torch's pre-hook sizes the weight from
# input= too (a 9M-element weight here, 3,000 x 3,000, made unchecked)
import torch
m = torch.nn.LazyLinear(3000)
y = m(input=torch.ones(1, 3000))
print(m.weight.shape, y.shape)

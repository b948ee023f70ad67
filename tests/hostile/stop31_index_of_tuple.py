# expect: LimitError
# tuple.index compares its argument with each item
import torch

a = torch.zeros(30000, 1)
b = torch.ones(1, 30000)
print(((b,),).index((a,)))

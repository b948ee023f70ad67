# expect: ForbiddenError
# the class a lazy layer turns into after its first call is torch's to choose
import torch
m = torch.nn.LazyLinear(3)
m.cls_to_become = torch.nn.Bilinear
print(m(torch.ones(2, 4)))

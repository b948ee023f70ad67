# expect: ForbiddenError
# getattr's name is text built at run time: a dunder made by concatenation is still one
import torch
net = torch.nn.Linear(2, 2)
table = getattr(net, "__di" + "ct__")
print(table)

# expect: ForbiddenError
# a program subclass of Parameter: Parameter.__deepcopy__ calls type(self)(...), the program's class
import copy
import torch
class P(torch.nn.Parameter):
    pass
print(copy.deepcopy(P(torch.ones(2))))

# expect: ForbiddenError
# an OrderedDict (a dict subclass) of names: Sequential and ModuleDict add each as a module
import collections

import torch.nn as nn

s = nn.Sequential(collections.OrderedDict([("__deepcopy__", nn.Linear(1, 1))]))
print(s)

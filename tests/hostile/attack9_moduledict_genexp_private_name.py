# expect: ForbiddenError
# ModuleDict of a generator of pairs: its names become attributes, and `__deepcopy__`
# would then be what copy.deepcopy finds on it; the names of a dict or a list are checked
import torch.nn as nn

md = nn.ModuleDict((k, v) for k, v in [("__deepcopy__", nn.Linear(1, 1))])
print(list(md.keys()))

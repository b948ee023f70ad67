# expect: ForbiddenError|LimitError
# an OrderedDict given names by |= then handed to nn.Sequential: its names become modules
import collections
import torch
od = collections.OrderedDict()
od |= [("__deepcopy__", torch.nn.Linear(2, 2))]
net = torch.nn.Sequential(od)

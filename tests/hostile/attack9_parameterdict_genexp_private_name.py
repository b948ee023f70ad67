# expect: ForbiddenError
# ParameterDict of a generator of pairs sets each name as an attribute
import torch
import torch.nn as nn

pd = nn.ParameterDict((k, nn.Parameter(torch.ones(1))) for k in ["_hidden"])
print(list(pd.keys()))

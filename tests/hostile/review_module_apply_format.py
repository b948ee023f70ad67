# expect: ForbiddenError
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2))
m.apply("{0.__dict__}".format)

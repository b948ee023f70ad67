# expect: ForbiddenError
import torch.nn as nn
m = nn.Linear(2, 2).to("meta")

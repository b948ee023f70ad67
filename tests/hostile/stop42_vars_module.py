# expect: ForbiddenError
# vars() takes argparse's Namespace: a Module's __dict__ holds torch's own tables.
import torch.nn as nn
print(vars(nn.Linear(2, 2))["_parameters"])

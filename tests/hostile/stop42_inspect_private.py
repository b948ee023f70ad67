# expect: ForbiddenError
# A parameter's private state (the default kept as it is) is not the program's to read.
import inspect
import torch.nn as nn
p = inspect.signature(nn.TransformerEncoderLayer).parameters["activation"]
print(p._default)

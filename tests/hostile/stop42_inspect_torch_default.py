# expect: ForbiddenError
# A default of torch's that is an object (TransformerEncoderLayer's activation, F.relu) is
# not handed out from a signature: it would be a torch function the checks never saw.
import inspect
import torch.nn as nn
sig = inspect.signature(nn.TransformerEncoderLayer)
relu = sig.parameters["activation"].default
print(relu)

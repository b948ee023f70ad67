# expect: ForbiddenError
# climbs from torch.__version__'s class to its bases (TorchVersion's, then object's subclasses)
import torch

print(torch.__version__.__class__.__mro__)

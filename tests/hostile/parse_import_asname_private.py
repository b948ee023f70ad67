# expect: ForbiddenError
# alias.asname is not checked (only alias.name): `import torch as _torch` binds a private name
import torch as _torch
from torch import nn as __nn
print("bound private names")

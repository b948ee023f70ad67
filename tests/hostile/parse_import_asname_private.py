# expect: ForbiddenError
# alias.asname is checked too: `import torch as _torch` is the program's own name, but a
# dunder (Python's own) is not
import torch as _torch
from torch import nn as __builtins__
print("bound a dunder")

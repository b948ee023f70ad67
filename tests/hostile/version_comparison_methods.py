# expect: ForbiddenError|AttributeError
# reaches for TorchVersion's own helpers (its _cmp_wrapper parses the other side): the
# program's torch.__version__ is a plain str, which has none
import torch

print(torch.__version__._cmp_wrapper)

# expect: ForbiddenError
# getattr admits __version__ only: another dunder by name stays refused
import torch

v = getattr(torch, "__version__")
print(getattr(torch, "__dict__"))

# expect: ForbiddenError
# setattr with the name as text, past the parser's check of a written attribute
import torch

setattr(torch, "__version__", "0.1")

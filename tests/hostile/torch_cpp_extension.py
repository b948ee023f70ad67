# expect: ForbiddenError|AttributeError
import torch
torch.utils.cpp_extension.load_inline('x', 'int x;')

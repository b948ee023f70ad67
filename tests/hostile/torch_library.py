# expect: ForbiddenError
import torch
lib = torch.library.Library('pwn', 'DEF')

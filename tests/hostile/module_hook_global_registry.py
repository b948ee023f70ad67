# expect: ForbiddenError|AttributeError
import torch
torch.nn.modules.module.register_module_forward_hook(print)

# expect: ForbiddenError
import torch
torch.os.system('touch pwned')

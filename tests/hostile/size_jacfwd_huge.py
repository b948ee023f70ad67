# expect: LimitError
# jacfwd pushes an inputs x inputs basis through the function
import torch
from torch.func import jacfwd
print(jacfwd(lambda x: x.exp())(torch.ones(100000)).shape)

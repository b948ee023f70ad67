# expect: LimitError
import torch
x = torch.randint(0, 10, (10**5, 10**5))

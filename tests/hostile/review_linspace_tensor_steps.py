# expect: LimitError
import torch
x = torch.linspace(0, 1, torch.tensor(10**9))

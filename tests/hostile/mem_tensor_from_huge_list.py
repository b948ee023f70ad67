# expect: LimitError
import torch
x = torch.tensor([[0.0] * 1000000] * 1000000)

# expect: LimitError
import torch
a = torch.randn(500, 500)
while True:
    a = torch.tanh(a @ a)

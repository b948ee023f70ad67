# expect: LimitError
import torch
x = torch.zeros(1000, 1000)
i = torch.zeros(5000, 1, dtype=torch.long)
j = torch.zeros(1, 5000, dtype=torch.long)
x[i, j] += 1.0

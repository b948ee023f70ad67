# expect: LimitError
import torch
keep = []
for i in range(30):
    keep.append(torch.zeros(1000000))

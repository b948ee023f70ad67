# expect: LimitError
# broadcast_tensors makes one tensor per input in C: 900,000 references to one tensor
# made 900,000 tensor objects (2.7 GB) past the memory bound; meshgrid and
# autograd.grad (a gradient per input) alike
import torch
x = torch.ones(1)
print(len(torch.broadcast_tensors(*([x] * 900000))))

# expect: LimitError
# a 1-element kernel_size on a LazyConv2d made the check take the batch for the channels
# (1 x 1000 x 3 estimated); torch takes dim 1 (3000 x 1000 x 3 = 9M elements made)
import torch
conv = torch.nn.LazyConv2d(1000, kernel_size=3)
conv.kernel_size = (3,)
try:
    conv(torch.ones(1, 3000, 1, 1))
except RuntimeError as e:
    print("forward failed after the weight was made")
print(conv.weight.shape)

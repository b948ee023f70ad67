# expect: LimitError
# a one-element view of a 4M-element tensor: Tensor.__deepcopy__ copies the whole storage (16 MB) while the walk and the budget count one element; 40 copies are 640 MB
import copy
import torch
x = torch.ones(4_000_000)
v = x[:1]
keep = []
for i in range(40):
    keep.append(copy.deepcopy(v))
print(len(keep))

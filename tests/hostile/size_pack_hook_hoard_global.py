# expect: LimitError
# a pack hook hoards copies in a list of the program's, op after op
import torch
keep = []
def pack(t):
    keep.append(t.repeat(4, 1))
    return t
x = torch.ones(1000, 1000, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    for i in range(10):
        x = torch.sin(x)
print(len(keep))

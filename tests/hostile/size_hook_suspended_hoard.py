# expect: LimitError
# during a backward pass the recorder is off: tensors a hook makes never count toward total_elements
import torch
keep = []
def hook(g):
    for i in range(30):
        keep.append(torch.ones(1000000) + i)
    return g
x = torch.ones(1, requires_grad=True)
x.register_hook(hook)
(x * 2).sum().backward()
print(len(keep))

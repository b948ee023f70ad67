# expect: LimitError
# a tensor whose .grad is a 3-element view of a 3.9M-element storage: the copy counts the grad's 3 elements but torch copies its whole storage; repeated copies kept alive
import copy
import torch
bigs = [torch.zeros(3_900_000, dtype=torch.float64) for _ in range(4)]
ts = []
for b in bigs:
    t = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    t.grad = b[:3]
    ts.append(t)
keep = []
for i in range(20):
    keep.append(copy.deepcopy(ts))

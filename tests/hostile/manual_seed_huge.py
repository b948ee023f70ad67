# expect: RuntimeError|LimitError|ValueError|OverflowError
import torch
torch.manual_seed(10**30)
print(torch.rand(1))

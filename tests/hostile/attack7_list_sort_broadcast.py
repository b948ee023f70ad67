# expect: LimitError
# list.sort() compares its items in C, as sorted() does
import torch

ts = [torch.zeros(30000, 1), torch.ones(1, 30000)]
ts.sort()

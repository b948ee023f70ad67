# expect: LimitError
# tensor_split makes every piece (a tensor object each) in one C call, checked only
# after: three million empty pieces of a one-element tensor took 2 GB and seconds
import torch
print(len(torch.tensor_split(torch.ones(1), 3_000_000)))

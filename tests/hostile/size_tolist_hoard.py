# expect: LimitError
# tolist() of a 1M tensor 12 times: 12M Python floats (~400 MB) with no budget
import torch
x = torch.ones(1000000)
keep = [x.tolist() for i in range(12)]
print(len(keep))

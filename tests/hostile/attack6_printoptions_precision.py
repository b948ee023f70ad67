# expect: LimitError
# A tensor's text is built whole before the string limit can refuse it: at a precision
# of 10**7, 200 elements were two billion characters (gigabytes, seconds in C)
import torch
torch.set_printoptions(precision=10**7)
print(torch.rand(200))

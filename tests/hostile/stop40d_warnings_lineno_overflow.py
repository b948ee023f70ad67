# expect: ValueError|ForbiddenError
# a filter whose lineno does not fit a C ssize_t: Python's C warn then raises OverflowError for every warning, from inside torch and the recorder (warnings as errors by another name)
import warnings
import torch
warnings.filterwarnings("ignore", lineno=2**70)
x = torch.ones(2, 3, 4)
y = x.T
t = torch.tensor(torch.ones(2))
print("after")

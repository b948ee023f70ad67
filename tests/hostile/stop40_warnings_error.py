# expect: ForbiddenError
# warnings as errors: torch and the recorder would raise from code the program does not own
import warnings
import torch
warnings.simplefilter("error")
x = torch.ones(2, requires_grad=True)
print((x * 2).grad)

# expect: TypeError
# torch keeps whatever set_printoptions is given and formats it into each element's
# format spec as text: a precision of "9999999" (or an object whose __str__ says so)
# passed a bound on numbers only
import torch
torch.set_printoptions(precision="9999999")
print(len(str(torch.rand(30))))

# expect: ForbiddenError
# A complex tensor is not a line of reals.
import matplotlib.pyplot as plt
import torch
plt.plot(torch.zeros(3, dtype=torch.complex64))

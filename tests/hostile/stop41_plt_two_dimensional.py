# expect: ForbiddenError
# One line at a time: a 2-D tensor (matplotlib's column per line) is refused, not read.
import matplotlib.pyplot as plt
import torch
plt.plot(torch.randn(100, 100))

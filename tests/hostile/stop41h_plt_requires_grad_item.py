# expect: RuntimeError
# A one-element tensor that requires grad inside a list is refused (as matplotlib's numpy() is).
import matplotlib.pyplot as plt
import torch
plt.plot([1.0, torch.ones(1, requires_grad=True)])

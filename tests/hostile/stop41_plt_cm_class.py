# expect: ForbiddenError|AttributeError
# plt.cm gives colormap names only: not its class, nor its lookup method.
import matplotlib.pyplot as plt
print(plt.cm.__class__.__getattr__)

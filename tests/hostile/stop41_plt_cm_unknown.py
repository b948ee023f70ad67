# expect: ForbiddenError|AttributeError
# A colormap matplotlib does not have is an AttributeError, as in matplotlib.
import matplotlib.pyplot as plt
print(plt.cm.NotAColormap)

# expect: ForbiddenError|AttributeError
# Storing on the shared plt.cm singleton.
import matplotlib.pyplot as plt
plt.cm.viridis = "mine"

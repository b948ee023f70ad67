# expect: KeyError
# Settings are taken and kept nowhere (one job's would otherwise reach the next): reading
# one back is a KeyError.
import matplotlib.pyplot as plt
plt.rcParams["figure.figsize"] = (8, 4)
print(plt.rcParams["figure.figsize"])

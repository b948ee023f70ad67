# expect: OverflowError|ValueError
# An x range too long for a length is refused before anything is compared with y.
import matplotlib.pyplot as plt
plt.plot(range(10**30), [1, 2])

# expect: TypeError
# rcParams.update reads a small dict of settings, not a big one.
import matplotlib.pyplot as plt
plt.rcParams.update({str(i): i for i in range(100000)})

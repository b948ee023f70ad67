# expect: KeyError
# A setting stored by one job (or this one) is never read back: nothing is kept in the shared singleton.
import matplotlib.pyplot as plt
plt.rcParams["secret"] = "job one"
print(plt.rcParams["secret"])

# expect: OverflowError
# An int no float holds (2**4000) is matplotlib's OverflowError (int too large to convert to float): the trace could not be written.
import matplotlib.pyplot as plt
plt.plot([2**4000, 1], label="huge")

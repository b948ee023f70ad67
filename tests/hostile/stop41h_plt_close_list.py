# expect: TypeError
# close() takes a figure, a name or nothing: a figure's axes list is not read.
import matplotlib.pyplot as plt
fig = plt.figure()
plt.close(fig.axes)

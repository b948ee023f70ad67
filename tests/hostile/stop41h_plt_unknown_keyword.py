# expect: ForbiddenError
# plot's data= (matplotlib indexes it with each string argument) is not taken.
import matplotlib.pyplot as plt
plt.plot("x", "y", data={"x": [1, 2], "y": [3, 4]})

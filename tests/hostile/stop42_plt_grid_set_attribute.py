# expect: ForbiddenError
# The grid's shape is not the program's to set: it would index cells that are not there.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
axes.shape = (100, 100)
print(axes[50, 50])

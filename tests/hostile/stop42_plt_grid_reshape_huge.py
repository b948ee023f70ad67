# expect: ValueError
# reshape() of the grid only rearranges its few axes: a huge shape is refused, not built.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
axes.reshape(10**18, 10**18)

# expect: ValueError|TypeError
# flatten('F') of the grid of axes is column-major in numpy: it is honoured or refused, never read as row-major (wrong cells).
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 3)
f = axes.flatten('F')
if f[1] is axes[1, 0]:
    raise ValueError("column-major, as numpy gives it")

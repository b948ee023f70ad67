# expect: ForbiddenError
# A grid of axes is not built: one row or one column, and at most 16.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(1, 100000)

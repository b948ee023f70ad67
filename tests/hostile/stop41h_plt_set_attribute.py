# expect: ForbiddenError|AttributeError
# A figure's attributes are not set by a program: fig.axes stays the figure's list.
import matplotlib.pyplot as plt
fig = plt.figure()
fig.axes = None

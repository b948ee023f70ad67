# expect: ForbiddenError|AttributeError
# The settings object's own methods beyond update/use are not readable.
import matplotlib.pyplot as plt
f = plt.rcParams.__setitem__
f("a", 1)

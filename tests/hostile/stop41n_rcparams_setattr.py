# expect: ForbiddenError|AttributeError
# An attribute set on the shared rcParams singleton would leak to the next job.
import matplotlib.pyplot as plt
plt.rcParams.leak = [1, 2, 3]

# expect: ForbiddenError|AttributeError
# matplotlib.pyplot as an attribute: its module internals are not reached.
import matplotlib
f = matplotlib.pyplot._plot
print(f)

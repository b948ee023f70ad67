# expect: ForbiddenError|AttributeError
# The Settings class behind plt.style (its methods unbound) is not reached.
import matplotlib.pyplot as plt
c = plt.style.__class__
print(c)

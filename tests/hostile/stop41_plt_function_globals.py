# expect: ForbiddenError|AttributeError
# A pyplot function's globals would hand out the module it lives in (and its imports).
import matplotlib.pyplot as plt
g = plt.plot.__globals__
print(g["callables"])

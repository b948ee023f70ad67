# expect: ForbiddenError|AttributeError
# plt.cm's own __getattr__ (a bound method of the shared singleton) is not reached.
import matplotlib.pyplot as plt
f = plt.cm.__getattr__
print(f)

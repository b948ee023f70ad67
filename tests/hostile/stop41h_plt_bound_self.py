# expect: ForbiddenError|AttributeError
# A figure method's __self__ and __func__ are Python's own.
import matplotlib.pyplot as plt
fig = plt.figure()
m = fig.add_subplot
print(m.__self__)

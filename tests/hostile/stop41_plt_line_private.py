# expect: ForbiddenError|AttributeError
# A plotted line's label is read with get_label(); its private field is not.
import matplotlib.pyplot as plt
line, = plt.plot([1, 2])
print(line._label)

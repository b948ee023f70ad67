# expect: TypeError
# A style keyword's value is text, a number or a short flat tuple: a nested list is not read.
import matplotlib.pyplot as plt
plt.plot([1, 2], color=[[[1]]])

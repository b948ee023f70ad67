# expect: TypeError
# A setting's tuples are short and shallow: a deep or long one is refused before it is read.
import matplotlib.pyplot as plt
plt.xlim(tuple(range(100000)))

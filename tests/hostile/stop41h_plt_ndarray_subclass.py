# expect: ForbiddenError
# A program ndarray class with its own tolist() would run inside the plot's conversion.
import matplotlib.pyplot as plt
import numpy as np
class A(np.ndarray):
    def tolist(self):
        raise SystemExit("ran")
plt.plot(np.zeros(3).view(A))

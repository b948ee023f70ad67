# expect: ForbiddenError
# A program numpy scalar with its own item() would run inside the plot's conversion.
import matplotlib.pyplot as plt
import numpy as np
class F(np.float64):
    def item(self):
        raise SystemExit("ran")
plt.plot([F(1.0), F(2.0)])

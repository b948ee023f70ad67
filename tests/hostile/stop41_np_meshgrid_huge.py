# expect: LimitError
# np.meshgrid makes one array per input, each the inputs' sizes multiplied: 3 x 2000^3.
import numpy as np
a = np.arange(2000.0)
g = np.meshgrid(a, a, a)

# expect: LimitError|ValueError|TypeError
# threshold of infinity: every element printed
import numpy as np
np.set_printoptions(threshold=float("inf"))
print(np.zeros(4000000))

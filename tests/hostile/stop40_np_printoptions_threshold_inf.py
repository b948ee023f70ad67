# expect: LimitError
# np.set_printoptions(threshold=np.inf), then a 4M-element array printed: numpy would build its whole text before the output limit could refuse it
import numpy as np
np.set_printoptions(threshold=np.inf)
print(np.zeros(4_000_000))

# expect: LimitError
# without `size`, np.random.randint's result has the shape its bounds broadcast to
import numpy as np

low = np.zeros((6000, 1), dtype=np.int64)
high = np.ones((1, 6000), dtype=np.int64) + 5
print(np.random.randint(low, high).shape)

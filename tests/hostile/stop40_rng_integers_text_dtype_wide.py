# expect: LimitError|TypeError
# Generator.integers with a wide text dtype keyword and 4M elements
import numpy as np
print(np.random.default_rng(0).integers(0, 10, size=4000000, dtype="U1000"))

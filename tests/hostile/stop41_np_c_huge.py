# expect: LimitError
# np.c_ is bounded as column_stack is: the parts' sizes together, before numpy copies them.
import numpy as np
a = np.zeros(3_000_000)
x = np.c_[a, a, a, a, a, a, a, a, a, a, a, a]

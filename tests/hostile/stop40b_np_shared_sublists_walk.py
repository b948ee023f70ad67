# expect: LimitError|ValueError
# a list whose first item is a number (so it is sized as 3 elements) holding the same sublist twice, 40 levels: the operand check walks every path, 2^40 of them, in one step
import numpy as np
x = [1.0]
for i in range(40):
    x = [1.0, x, x]
print(np.sum(x))

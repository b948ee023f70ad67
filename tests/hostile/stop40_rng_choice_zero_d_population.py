# expect: LimitError
# choice(np.array(n), k, replace=False): the rule bounds n only when it is an int or a
# numpy integer; numpy reads a 0-d array as n too, and the legacy RandomState permutes
# all of range(1e8) (800 MB, seconds in C)
import numpy as np
rs = np.random.RandomState(0)
print(rs.choice(np.array(100000000), 3, replace=False))

# expect: LimitError
# 1.26 million small objects: deepcopy walks each in Python
import copy
ys = [[[i] for i in range(90_000)] for j in range(14)]
print(len(copy.deepcopy(ys)))

# expect: LimitError
# a list nested 5,000 deep: deepcopy recurses once per level
import copy
x = []
for i in range(5000):
    x = [x]
print(len(copy.deepcopy(x)))

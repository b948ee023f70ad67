# expect: TypeError|ForbiddenError
# numpy's array of axes is unhashable: a dict key or set member of it is a TypeError, as in matplotlib.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
seen = {axes: 1}
print(len(seen))

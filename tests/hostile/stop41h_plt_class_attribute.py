# expect: ForbiddenError|AttributeError
# An Axes' class is not reachable through __class__ (its private members would follow).
import matplotlib.pyplot as plt
c = plt.gca().__class__
print(c._setting)

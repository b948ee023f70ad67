# expect: ForbiddenError
# The grid's private members are not a program's to read.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
print(axes._cells)

# expect: ForbiddenError
# A program class built on the grid of axes would read its private cells as its own.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
class Mine(type(axes)):
    def go(self):
        return self._cells
print(Mine((), (0,)).go())

# expect: ForbiddenError
# A program class built on Axes would read its private helpers (self._setting) as its own.
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
class MyAxes(type(ax)):
    def go(self):
        return self._setting
print(MyAxes().go())

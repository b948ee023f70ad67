# expect: TypeError
# A program object passed to a Line setter is not accepted.
import matplotlib.pyplot as plt


class C:
    def __len__(self):
        return 10**9


line, = plt.plot([1.0, 2.0])
line.set_color(C())

# expect: TypeError
# A line's label is text or a number: a program object is not formatted.
import matplotlib.pyplot as plt


class Label:
    def __str__(self):
        raise SystemExit("label")


plt.plot([1, 2, 3], label=Label())

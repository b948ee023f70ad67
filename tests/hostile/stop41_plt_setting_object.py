# expect: TypeError
# A setting's argument is text or numbers: a program object's __str__ (matplotlib would
# format a title with it) is never called.
import matplotlib.pyplot as plt


class Loud:
    def __str__(self):
        return "x" * 10**9


plt.title(Loud())

# expect: TypeError
# plt.rcParams takes text and numbers: a program object is not kept to be formatted later.
import matplotlib.pyplot as plt


class Size:
    def __iter__(self):
        while True:
            yield 1


plt.rcParams["figure.figsize"] = Size()

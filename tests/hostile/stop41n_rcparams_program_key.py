# expect: TypeError
# A program object as an rcParams key (its __hash__/__eq__ would run in a dict).
import matplotlib.pyplot as plt


class K:
    def __hash__(self):
        return 1


plt.rcParams[K()] = 1

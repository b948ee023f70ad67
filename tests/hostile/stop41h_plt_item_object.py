# expect: TypeError
# An item of a program's own class inside a line's list is not converted (__float__ unused).
import matplotlib.pyplot as plt
class N:
    def __repr__(self):
        raise SystemExit("ran")
plt.plot([1.0, N()])

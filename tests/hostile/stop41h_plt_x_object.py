# expect: TypeError
# An x of a program's own class is not measured (its __len__ never runs).
import matplotlib.pyplot as plt
class Liar:
    def __len__(self):
        raise SystemExit("ran")
plt.plot(Liar(), [1, 2])

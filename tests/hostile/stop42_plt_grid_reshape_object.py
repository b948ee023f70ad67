# expect: ValueError|TypeError
# reshape() of the grid takes whole numbers: a program object's __eq__ or __len__ is
# never asked.
import matplotlib.pyplot as plt
class S:
    def __len__(self):
        raise SystemExit("ran")
    def __eq__(self, other):
        raise SystemExit("ran")
fig, axes = plt.subplots(2, 2)
axes.reshape(S())

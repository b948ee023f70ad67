# expect: IndexError
# An index of subplots' grid of axes is a whole number or a slice: a program's sequence
# is never read (numpy would read it from C, as a fancy index).
import matplotlib.pyplot as plt
class S:
    def __len__(self):
        raise SystemExit("ran")
    def __getitem__(self, i):
        raise SystemExit("ran")
fig, axes = plt.subplots(2, 2)
axes[S(), 0]

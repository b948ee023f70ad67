# expect: TypeError
# A program's own sequence class is not read as a line: its __getitem__ and __len__
# would run inside the plot's conversion, and could lie about the length.
import matplotlib.pyplot as plt


class Liar:
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return 10**9


plt.plot(Liar())

# expect: IndexError
# A slice's bounds are whole numbers: a program object there is refused before
# slice.indices() reads it.
import matplotlib.pyplot as plt
class S:
    def __eq__(self, other):
        raise SystemExit("ran")
    def __hash__(self):
        raise SystemExit("ran")
fig, axes = plt.subplots(2, 2)
axes[0:S()]

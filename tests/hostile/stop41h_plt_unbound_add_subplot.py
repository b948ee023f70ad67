# expect: ForbiddenError
# Figure's methods called unbound with a program object as self would call its append.
import matplotlib.pyplot as plt
class Box:
    def append(self, x):
        raise SystemExit("ran inside add_subplot")
class Evil:
    def __init__(self):
        self.axes = Box()
F = type(plt.figure())
F.add_subplot(Evil())

# expect: ForbiddenError|AttributeError
# getattr with a name a program writes reads no private Axes member.
import matplotlib.pyplot as plt
ax = plt.gca()
h = getattr(ax, "_" + "setting")
h(1)

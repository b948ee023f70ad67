# expect: ForbiddenError|AttributeError
# An Axes' private setting method (what set_title and the rest are) stays unreachable.
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
h = ax._setting
h.__func__.__globals__["warnings"].resetwarnings()

# expect: ZeroDivisionError
# An int past 64 bits in a plotted line: a float here, as matplotlib holds it (the JSON writer takes 64-bit integers only, and the harness writes the trace as the worker does).
import matplotlib.pyplot as plt
plt.plot([2**64, 1], label="big")
1 / 0

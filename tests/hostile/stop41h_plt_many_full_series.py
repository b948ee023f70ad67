# expect: LimitError
# A job plots at most 64 lines (and 10 series' lengths of points in all): 500 calls would put 5,000,000 numbers (40+ MB of JSON) in the trace.
import matplotlib.pyplot as plt
t = [0.5] * 10000
for i in range(500):
    plt.plot(t)
1 / 0

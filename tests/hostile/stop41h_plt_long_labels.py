# expect: LimitError|ValueError|ForbiddenError
# A plotted label is cut at 100 characters and a job plots at most 64 lines: 1,000 lines with 100,000-character labels would make a 100 MB trace.
import matplotlib.pyplot as plt
L = "L" * 99990
for i in range(1000):
    plt.plot([1, 2], label=L + str(i))
1 / 0

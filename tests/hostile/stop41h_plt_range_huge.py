# expect: OverflowError|ValueError
# A range too long for a length is refused (its length is read, never its items), not walked.
import matplotlib.pyplot as plt
plt.plot(range(10**30))

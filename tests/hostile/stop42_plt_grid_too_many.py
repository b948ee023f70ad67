# expect: ForbiddenError
# A grid of subplots is bounded like a row of them.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(300, 300)

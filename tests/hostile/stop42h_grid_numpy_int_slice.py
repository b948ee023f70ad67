# expect: ValueError
# A slice bound that is a numpy integer (axes[:n], n from numpy) is a valid index in numpy; it must index the grid, not raise IndexError.
import matplotlib.pyplot as plt
import numpy as np
fig, axes = plt.subplots(2, 2)
n = np.int64(1)
first = axes[:n]
raise ValueError(f"indexed: {first.shape}")

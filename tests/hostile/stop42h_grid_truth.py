# expect: ValueError
# `if axes:` of a 2x2 grid is numpy's "truth value of an array with more than one element is ambiguous" ValueError, not True.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
if axes:
    print("truthy")

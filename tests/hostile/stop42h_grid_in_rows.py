# expect: ValueError|TypeError|ForbiddenError
# `ax in axes` of a 2x2 grid is True in numpy (elementwise ==, any); comparing ax with whole rows gives False, a wrong answer.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
if axes[0, 0] in axes:
    raise ValueError("found, as numpy finds it")

# expect: ValueError|TypeError|ForbiddenError
# `axes[0] == axes[0, 0]` is elementwise in numpy ([True, False]); an identity compare giving one False is a wrong answer.
import matplotlib.pyplot as plt
fig, axes = plt.subplots(2, 2)
same = axes[0] == axes[0, 0]
if same is False:
    print("identity compare, not numpy's")
else:
    raise ValueError("elementwise, as numpy")

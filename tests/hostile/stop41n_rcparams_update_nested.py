# expect: TypeError
# rcParams.update with a nested dict value: refused.
import matplotlib
matplotlib.rcParams.update({"font": {"size": [1] * 10**6}})

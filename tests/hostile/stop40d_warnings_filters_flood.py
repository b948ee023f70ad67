# expect: LimitError
# hundreds of thousands of distinct filters (each add scans the list in C; each warning is then matched against all of them in C)
import warnings
for j in range(10):
    for i in range(100000):
        warnings.filterwarnings("ignore", message=".*" + "a" * 150 + str(j) + "_" + str(i))
    warnings.warn("a" * 999)

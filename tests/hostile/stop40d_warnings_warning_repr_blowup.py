# expect: LimitError|TypeError
# warn() of a Warning built around a container printing to billions of characters: py_warnings.warn reads str(message) with Python's own str (no string limit), in one C call
import warnings
a = [list(range(1000))] * 1000
b = [a] * 1000
c = [b] * 1000
warnings.warn(UserWarning(c))
print("done")

# expect: ForbiddenError|AttributeError
# pyplot's own helpers are not members: the line maker behind plot() is not reachable.
import matplotlib.pyplot as plt
f = plt._plot
f((), {})

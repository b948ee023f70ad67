# expect: ForbiddenError
# Only matplotlib.pyplot is importable: matplotlib.cm and the other submodules are not.
import matplotlib.cm

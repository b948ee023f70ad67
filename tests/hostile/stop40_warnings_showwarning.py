# expect: ForbiddenError|AttributeError
# replacing showwarning to run program code from inside the trace's warning log
import warnings
warnings.showwarning = lambda *a: print("hooked")
warnings.warn("x")

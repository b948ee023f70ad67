# expect: ValueError
# inspect.signature of a program's bound method: CPython gives its parameters less self, (x, y=2); gradtrace gave (*args, **kwargs), silently.
import inspect
class M:
    def m(self, x, y=2):
        return x
params = inspect.signature(M().m).parameters
if "x" in params and "self" not in params:
    raise ValueError("as CPython")
raise KeyError(str(inspect.signature(M().m)))

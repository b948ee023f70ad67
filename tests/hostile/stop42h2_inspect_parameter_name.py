# expect: TypeError|ForbiddenError
# inspect.Parameter made with a program object as its name: str() of it writes "*" + name in gradtrace's code, running the program's __radd__ there.
import inspect
class N:
    def __radd__(self, other):
        raise ValueError("ran")
p = inspect.Parameter(N(), "VAR_POSITIONAL")
print(str(p))

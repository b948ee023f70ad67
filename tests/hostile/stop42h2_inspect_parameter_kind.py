# expect: TypeError|ForbiddenError
# inspect.Parameter made by the program with a program object as its kind (and the hidden own=True): printing a Signature compares the kind with == in gradtrace's code, running the program's __eq__ there.
import inspect
class K:
    def __eq__(self, other):
        raise ValueError("ran")
p = inspect.Parameter("x", K(), own=True)
print(inspect.Signature([p]))

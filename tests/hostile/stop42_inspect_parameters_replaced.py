# expect: TypeError
# A signature's parameters table is the program's to change, but written out it holds
# inspect.Parameters only: a program object's __str__ is not run from our code.
import inspect
def f(a, b=2):
    return a
class P:
    def __str__(self):
        raise ValueError("ran")
sig = inspect.signature(f)
sig.parameters["b"] = P()
print(sig)

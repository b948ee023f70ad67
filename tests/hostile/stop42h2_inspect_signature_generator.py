# expect: TypeError|ForbiddenError
# inspect.Signature(...) iterates what it is given in gradtrace's code: a program generator's body runs there, outside the interpreter's call path.
import inspect
def g():
    raise ValueError("ran")
    yield 1
inspect.Signature(g())

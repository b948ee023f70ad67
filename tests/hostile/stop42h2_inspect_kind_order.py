# expect: ValueError
# inspect's parameter kinds are ordered (an IntEnum): POSITIONAL_OR_KEYWORD < KEYWORD_ONLY is True in CPython; gradtrace's kinds are strings and compared False.
import inspect
def f(a, *, b=1):
    return a
p = inspect.signature(f).parameters["a"]
if p.kind < inspect.Parameter.KEYWORD_ONLY:
    raise ValueError("as CPython")
raise KeyError("kinds compared as text")

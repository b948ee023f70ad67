# expect: ValueError
# repr() of a Signature: CPython writes <Signature (a, b=2)>, gradtrace wrote <Signature "(a, b=2)">, silently (a Parameter's repr is quoted in both).
import inspect
def f(a, b=2):
    return a
if repr(inspect.signature(f)) == "<Signature (a, b=2)>":
    raise ValueError("as CPython")
raise KeyError(repr(inspect.signature(f)))

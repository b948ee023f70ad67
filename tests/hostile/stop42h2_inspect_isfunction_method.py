# expect: ValueError
# inspect.isfunction of a method read off the program's class (M.m, a plain function in CPython) or of a staticmethod: True in CPython, False in gradtrace, silently.
import inspect
class M:
    def m(self):
        return 1
    @staticmethod
    def s():
        return 2
if inspect.isfunction(M.m) and inspect.isfunction(M.s):
    raise ValueError("as CPython")
raise KeyError("a method of the program's class is not a function here")

# expect: ForbiddenError
# a Warning subclass of the program's with its own __str__, run by Python's C warn and by the trace's log
import warnings
class MyWarning(UserWarning):
    def __str__(self):
        return "x" * 50000
warnings.warn(MyWarning())

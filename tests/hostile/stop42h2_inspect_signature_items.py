# expect: TypeError|ForbiddenError
# inspect.Signature([...]) reads .name off each item with Python's getattr: a program object's property runs from gradtrace's code.
import inspect
class P:
    @property
    def name(self):
        raise ValueError("ran")
inspect.Signature([P()])

# expect: ForbiddenError
# A method's decorators are evaluated as the methods are made, before the class's
# namespace is: one that reads a name of the body is refused rather than reading the
# global of that name (what CPython would not do).
import torch

wrap = None


class A:
    wrap = staticmethod

    @wrap
    def f():
        return 1

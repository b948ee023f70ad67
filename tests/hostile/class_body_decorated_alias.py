# expect: ForbiddenError
# A class body's namespace holds a decorated method as the wrapper Python made of it
# (a staticmethod, a property): read by name in the body, that wrapper would reach the
# program as it is, unchecked. Only plain methods are handed out.
import torch


class A:
    @property
    def f(self):
        return 1

    g = f
    h = g.fget

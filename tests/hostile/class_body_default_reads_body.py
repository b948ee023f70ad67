# expect: ForbiddenError
# A method's default is evaluated as the method is made: one that reads a name of the
# class body is refused, never given the global of that name instead.
import torch

k = "the global"


class A:
    k = 2

    def f(self, v=k):
        return v


print(A().f())

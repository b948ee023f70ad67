# Callables that are not functions, kept on a class (in its body, or set after it as
# d2l's add_to_class does): Python binds to the instance only what has __get__ binding
# it. A staticmethod object is read as its function, and builtins (len, max, sorted,
# sum, torch.relu) are read as they are: each is called without the instance, however
# gradtrace implements the builtin.
import torch


class A:
    s = staticmethod(lambda: 3)
    n = len
    biggest = max
    f = lambda self, x: x + 1  # noqa: E731


a = A()
print(A.s(), a.s())
print(a.n([1, 2]), A.n([1]))
print(a.biggest(1, 2), A.biggest([3, 4]))
print(a.f(1), A.f(a, 2))

A.r = torch.relu
A.order = sorted
A.total = sum
A.t = staticmethod(lambda x: x * 2)
print(a.r(torch.tensor([-1.0, 2.0])))
print(a.order([3, 1, 2]), A.total([1, 2, 3]), a.total([4, 5]))
print(a.t(5), A.t(6))

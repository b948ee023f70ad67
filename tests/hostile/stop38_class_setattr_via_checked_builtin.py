# expect: ForbiddenError
# a class handed to Python's code is its checked value: setattr through it reaches only
# what setting on the class itself may
import functools


class A:
    pass


set_on_a = functools.partial(setattr, A)
set_on_a("__init_subclass__", print)

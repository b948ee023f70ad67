# expect: ForbiddenError
# as stop38c_fields_forged_dunder, by the class body: `gradtrace_fields` among a plain
# class's attributes forges the fields a dataclass built on it reads (here a member
# `__getattribute__`, a dunder no body may define). Refuse the name in the body.
from dataclasses import dataclass


class Spec:
    def __init__(self, name, default):
        self.name = name
        self.init = False
        self.repr = False
        self.required = False
        self.default = default
        self.factory = None


def hook(name):
    print("the program's __getattribute__:", name)
    return 42


class Base:
    gradtrace_fields = (Spec("__getattribute__", hook),)


@dataclass(init=False, repr=False, eq=False)
class D(Base):
    pass


d = D()
print(d.anything)

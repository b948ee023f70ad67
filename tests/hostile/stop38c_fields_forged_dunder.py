# expect: ForbiddenError
# `gradtrace_fields` is gradtrace's own record of a dataclass's fields (read from the
# bases by @dataclass, each default put on the new class as it is): set on the program's
# class, a forged field defines any name on a dataclass built on it, dunders included.
# Here __getattribute__: Python then runs the program's function for every attribute
# read, gradtrace's own included (isinstance reads __class__), and the trace's
# serializer, after the program ended, raises out of gradtrace.run. Refuse the name as
# `gradtrace_members` is refused.
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
    pass


setattr(Base, "gradtrace_fields", (Spec("__getattribute__", hook),))


@dataclass(init=False, repr=False, eq=False)
class D(Base):
    pass


d = D()
print(d.anything)

# expect: ForbiddenError
# a forged `gradtrace_fields` (gradtrace's record of a dataclass's fields) set on the
# program's class names a field 5: @dataclass puts 5 among the members of the class
# built on it, and at the job's end deleting the class's members raises TypeError out
# of gradtrace.run (the rest of the teardown skipped). Refuse the name on the class.
from dataclasses import dataclass


class Spec:
    def __init__(self, name):
        self.name = name
        self.init = False
        self.repr = False
        self.required = False
        self.default = 1
        self.factory = None


class Base:
    pass


Base.gradtrace_fields = (Spec(5),)


@dataclass
class D(Base):
    y: int = 2


print(D().y)

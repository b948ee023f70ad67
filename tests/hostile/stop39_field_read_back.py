# expect: TypeError|ForbiddenError|AttributeError
# a dataclass field's `field(...)` read back by name in the body: CPython refuses the
# class ('spec' is a field but has no type annotation); gradtrace's Field record, with the
# factory it holds, is not the program's to reach
from dataclasses import dataclass, field


@dataclass
class A:
    xs: list = field(default_factory=list)
    spec = xs


print(A.spec)
print(A().spec)
print(A.spec.default_factory)

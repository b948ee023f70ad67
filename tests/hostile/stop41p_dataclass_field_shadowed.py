# expect: AttributeError|ForbiddenError
# A @dataclass field `x: int = 0` then a @property x: CPython's field default is the property object (its __init__ then fails, no setter); gradtrace refuses the class rather than hand a property to the program.
from dataclasses import dataclass
@dataclass
class A:
    x: int = 0
    @property
    def x(self):
        return 5
print(A())

# expect: TypeError|ForbiddenError
# A dataclass's made __eq__, read by name and called on two objects of another class, reads its field names off them with Python's getattr: the other class's property (program code) runs from gradtrace's own code.
from dataclasses import dataclass
@dataclass
class D:
    x: int = 1
class E:
    @property
    def x(self):
        raise ValueError("ran")
print(D.__eq__(E(), E()))
raise KeyError("no property ran")

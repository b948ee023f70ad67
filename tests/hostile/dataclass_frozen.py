# expect: ForbiddenError
from dataclasses import dataclass


@dataclass(frozen=True)
class P:
    x: int

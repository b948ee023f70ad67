# expect: ForbiddenError
from dataclasses import dataclass


class P:
    pass


Q = dataclass(P)

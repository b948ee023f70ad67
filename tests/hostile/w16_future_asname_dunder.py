# expect: ForbiddenError
from __future__ import annotations as __builtins__
print(__builtins__)

# expect: ForbiddenError|AttributeError
from dataclasses import dataclass, field
f = field(default=1)
print(f.default_factory)

# expect: SyntaxError
from __future__ import braces
print("scoped")

# expect: TypeError
from typing import Optional
print(Optional(3))

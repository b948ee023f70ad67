# expect: ForbiddenError|AttributeError
from typing import List
print(getattr(List[int], "copy_with")((int,)))

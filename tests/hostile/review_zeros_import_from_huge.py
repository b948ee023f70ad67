# expect: LimitError
from torch import zeros as z
y = z(10**5, 10**5)

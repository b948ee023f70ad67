# expect: LimitError
# An instance's choices() is bounded as the module's is: the same function, the same checks.
import random
random.Random(0).choices([1, 2], k=10**9)

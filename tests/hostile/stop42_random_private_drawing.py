# expect: ForbiddenError
# The instance's helper that calls the module's functions is not the program's to call
# with a name of its choosing.
import random
rng = random.Random(1)
rng._drawing("seed", (1,), {})

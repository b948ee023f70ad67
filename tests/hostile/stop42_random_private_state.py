# expect: ForbiddenError
# A generator's own state is read through getstate(), never its private attribute.
import random
rng = random.Random(1)
print(rng._state)

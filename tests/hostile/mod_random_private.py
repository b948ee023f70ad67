# expect: AttributeError
import random
print(random._inst)

# expect: ForbiddenError
import torch as os
print(os.os)

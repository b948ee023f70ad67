# expect: ForbiddenError
import torch
import os
print('imported')

# expect: ForbiddenError
import torch
import subprocess
print('imported')

# expect: ForbiddenError
import torch
from os import system
print('imported')

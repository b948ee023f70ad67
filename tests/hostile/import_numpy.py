# expect: ForbiddenError
# numpy is a stand-in: its ctypes bridge does not exist
import torch
import numpy.ctypeslib
print('imported')

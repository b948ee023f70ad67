# expect: ForbiddenError
import torch
import socket
print('imported')

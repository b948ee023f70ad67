# expect: ForbiddenError
import torch
import urllib.request
print('imported')

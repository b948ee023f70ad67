# expect: ForbiddenError
# writes a module's version (read only) to change what later jobs of the worker read
import torch

torch.__version__ = "0.1"

# expect: TypeError|ForbiddenError
# a module stand-in inside a slice: the walk never sees it, deepcopy copies the Namespace (its members table, random's Random behind its bound methods); CPython says cannot pickle 'module'
import copy
import random
r = copy.deepcopy(slice(None, random)).stop
print(r, r is random, r.random())

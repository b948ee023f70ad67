# expect: ForbiddenError
print(__builtins__)

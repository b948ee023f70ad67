# expect: ForbiddenError
__secret__ = 5
print(__secret__)

# expect: ForbiddenError
# vars() with no argument is the scope's table (CPython's locals()): not handed out.
x = 1
print(vars())

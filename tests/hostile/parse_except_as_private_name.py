# expect: ForbiddenError
# ExceptHandler.name is an identifier field the checker never reads: `except ... as __builtins__` binds a private name
try:
    x = 1 / 0
except ZeroDivisionError as __builtins__:
    print("bound a private name")

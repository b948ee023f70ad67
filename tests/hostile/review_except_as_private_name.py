# expect: ForbiddenError
try:
    x = 1 / 0
except ZeroDivisionError as __builtins__:
    print("bound")

# expect: ForbiddenError
try:
    1 / 0
except ZeroDivisionError as e:
    tb = getattr(e, "__traceback__")
    print(tb)

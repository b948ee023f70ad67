# expect: ForbiddenError
try:
    1 / 0
except ZeroDivisionError as e:
    print(e.__traceback__.tb_frame.f_globals)

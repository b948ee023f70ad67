# expect: ForbiddenError
# a caught exception's __traceback__.tb_frame reaches the interpreter's own module globals
import torch
show = "{0.__traceback__.tb_frame.f_globals[__name__]} {0.__traceback__.tb_frame.f_globals[torch].os.environ}".format
try:
    x = 1 / 0
except ZeroDivisionError as e:
    print(show(e)[:120])

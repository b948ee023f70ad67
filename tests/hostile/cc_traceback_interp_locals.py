# expect: ForbiddenError
# tb_frame.f_locals of the evaluator's try_ closure holds `interp`: read its limits and builtins
import torch
show = "{0.__traceback__.tb_frame.f_locals[interp].limits}".format
try:
    x = [][1]
except IndexError as e:
    print(show(e))

# expect: ForbiddenError
# walk tb_next frames down to torch's own code objects (filenames of the server install)
import torch
show = "{0.__traceback__.tb_next.tb_frame.f_code.co_filename}".format
try:
    torch.ones(2) @ torch.ones(3)
except RuntimeError as e:
    print(show(e))

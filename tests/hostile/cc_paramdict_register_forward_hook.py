# expect: ForbiddenError
# an un-allowlisted Module method reached as pd["register_forward_hook"]; the hook lands in the private hook table
import torch
pd = torch.nn.ParameterDict()
handle = pd["register_forward_hook"](lambda mod, inp, out: print("hook ran"))
print(len(pd["_forward_hooks"]), handle)

# expect: KeyError
# str.format of a grad_fn and a bound method: printed text masks heap addresses ('0x…'); the program checks that, then ends
import torch
x = torch.ones(1, requires_grad=True)
y = x * 2
s = "{0} {1}".format(y.grad_fn, x.add)
assert "0x…" in s and "0x7" not in s, s
raise KeyError("clean")

# torch.autograd.forward_ad.dual_level() as a decorator on a generator function: torch
# wraps the generator so that each step runs inside the dual level, as it does for
# @torch.no_grad(). (stop38b: gradtrace handed torch the program's function, which torch
# could not tell was a generator function, so the steps ran outside any level and
# make_dual raised "no level exists".)
import torch
import torch.autograd.forward_ad as fwAD


@fwAD.dual_level()
def tangents(n):
    for i in range(n):
        x = fwAD.make_dual(torch.full((2,), float(i)), torch.ones(2))
        yield fwAD.unpack_dual(torch.sin(x)).tangent


print(list(tangents(2)))

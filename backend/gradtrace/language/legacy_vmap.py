"""torch's older vmap (`torch._vmap_internals._vmap`), which `autograd.grad(...,
is_grads_batched=True)`, autograd.functional's `jacobian` / `hessian` with
`vectorize=True` and gradcheck's batched checks run on, calls the program's code (its
function, a hook, a custom Function's backward) with batched tensors: tensors whose shape
leaves out the batch. Unlike torch.func's, they stay batched once it ends: one the program
kept (a hook's gradient appended to a list) made every op on it allocate batch times the
elements its shape says, past every size check (`k * torch.ones(1000, 1000)`, 1,000,000
elements by the checks, took 4 GB), or run batch times the work past the alarm.

So the program never holds one: while that vmap runs (`RUNNING`), what torch hands the
program's functions and what the program's calls return are refused if batched. Outside
it nothing is asked (a list read per call).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import torch
import torch._vmap_internals
import torch.autograd.functional
import torch.autograd.gradcheck

from gradtrace.language.errors import ForbiddenError

_is_batched = torch._C._functorch.is_legacy_batchedtensor

#: Not empty while torch's older vmap runs a function (nested: one entry each).
RUNNING: list[bool] = []

_torch_vmap = torch._vmap_internals._vmap


def _vmap(
    func: Callable[..., Any],
    in_dims: Any = 0,
    out_dims: Any = 0,
    allow_none_pass_through: bool = False,
) -> Callable[..., Any]:
    @functools.wraps(func)
    def batched(*args: Any, **kwargs: Any) -> Any:
        RUNNING.append(True)
        try:
            return func(*args, **kwargs)
        finally:
            RUNNING.pop()

    return _torch_vmap(batched, in_dims, out_dims, allow_none_pass_through)


# Every user of it reads it from one of these module globals when it runs.
for _module in (
    torch._vmap_internals,
    torch.autograd.functional,
    sys.modules["torch.autograd.gradcheck"],
):
    if getattr(_module, "_vmap", None) is _torch_vmap:
        _module._vmap = _vmap  # type: ignore[attr-defined]


def refuse(values: Any, depth: int = 2) -> None:
    """Raise if one of `values` (or of the tuples and lists among them, two levels: a
    Module hook's gradients, unpack_dual's pair) is batched."""
    for value in values:
        if isinstance(value, torch.Tensor):
            if _is_batched(value):
                raise ForbiddenError(
                    "a vectorized pass (jacobian or hessian with vectorize=True, gradcheck's "
                    "check_batched_grad) cannot hand its batched tensors to the program's "
                    "code (a hook, a custom Function's backward, a forward-mode function that "
                    "reads a tangent): use vectorize=False, or torch.func's jacrev and jacfwd"
                )
        elif depth and isinstance(value, (tuple, list)):
            refuse(value, depth - 1)

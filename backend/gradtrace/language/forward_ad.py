"""`torch.autograd.forward_ad`: dual tensors, torch's own functions as they are.

`make_dual` and `unpack_dual` are plain torch ops (checked and recorded like any other:
a dual tensor's node shows its primal values, and the tangent a program unpacks is a
node of its own); `dual_level` is a `with` manager. A custom Function's `jvp` runs as its
`forward` and `backward` do (classes.py).
"""

from __future__ import annotations

from typing import Any

import torch.autograd.forward_ad as fwAD

MEMBERS: dict[str, Any] = {
    "dual_level": fwAD.dual_level,
    "make_dual": fwAD.make_dual,
    "unpack_dual": fwAD.unpack_dual,
    "UnpackedDualTensor": fwAD.UnpackedDualTensor,
}

#: The fields a program reads of what `unpack_dual` returns.
UNPACKED_FIELDS = frozenset({"primal", "tangent", "count", "index"})


def reset() -> None:
    """Leave whatever dual level a job left entered (a `with` it never left)."""
    while fwAD._current_level >= 0:
        fwAD.exit_dual_level()

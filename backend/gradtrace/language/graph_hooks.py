"""`torch.autograd.graph`: saved-tensor hooks whose pack and unpack are the program's own.

torch calls a pack hook for every tensor an op saves for backward (inside the `with`),
and the matching unpack hook when backward (or a read of `grad_fn._saved_x`) needs it
back. Here both are the program's functions, each called through the interpreter's one
call path with recording suspended: they are autograd's plumbing, not ops of the source
(the tensors they make count toward the budgets while they live, as a hook's do). What
a pack hook returns is held by torch's graph until backward, so it is checked: tensors,
numbers, strings, devices and dtypes, the program's functions, and tuples or lists of
these. What an unpack hook returns torch checks itself (a Tensor, of the saved shape).
"""

from __future__ import annotations

from typing import Any

import torch

from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.sizes import count_items
from gradtrace.language.values import UserFunction

_Graph = torch.autograd.graph
_PLAIN = (type(None), bool, int, float, complex, str, torch.device, torch.dtype, torch.Size)
_PACKED_DEPTH = 8
_DEVICE_TYPES = frozenset({"cuda", "cpu", "mps", "xpu"})


class RecorderPeek(RuntimeError):
    """Raised by an unpack hook when the recorder, not the program, reads a saved tensor:
    the program's code runs only when the program asks (its values are not shown)."""


def _check_packed(value: Any, limit: int) -> None:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is tuple or kind is list:
            if depth >= _PACKED_DEPTH:
                raise ForbiddenError(
                    f"a pack hook returned tuples or lists nested more than {_PACKED_DEPTH} "
                    "deep: return a flat tuple"
                )
            stack.extend((sub, depth + 1) for sub in item)
        elif not (
            isinstance(item, torch.Tensor)
            or kind in _PLAIN
            or kind is UserFunction
            or kind is Checked
        ):
            raise ForbiddenError(
                f"a pack hook of saved_tensors_hooks returned a {kind.__name__}: it may return "
                "tensors, numbers, strings, devices, functions, and tuples or lists of them "
                "(keep other objects in a list of your own and return their index)"
            )
    if count_items(value, limit + 1) > limit:
        raise ForbiddenError(f"a pack hook returned more than {limit:,} items: return fewer")


def _pack(hook: Any) -> Any:
    def pack(tensor: torch.Tensor) -> Any:
        interp = callables.current()
        with interp.rec.suspended():
            packed = interp.invoke(hook, (tensor,), {}, interp.here, None, "")
        _check_packed(packed, interp.limits.sequence_items)
        interp.made.held_by_torch(packed)  # its lists are emptied when the job ends
        return packed

    return pack


def _unpack(hook: Any) -> Any:
    def unpack(packed: Any) -> Any:
        interp = callables.current()
        if interp.rec.peeking:
            raise RecorderPeek("saved through the program's hooks")
        with interp.rec.suspended():
            return interp.invoke(hook, (packed,), {}, interp.here, None, "")

    return unpack


class SavedTensorsHooks(_Graph.saved_tensors_hooks):
    """`torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)`."""

    def __init__(self, pack_hook: Any, unpack_hook: Any) -> None:
        super().__init__(_pack(pack_hook), _unpack(unpack_hook))


class SaveOnCpu(_Graph.save_on_cpu):
    """`torch.autograd.graph.save_on_cpu(pin_memory=False, device_type="cuda")`: torch's
    own hooks, its options read once (plain values) when it is made."""

    def __init__(self, pin_memory: Any = False, device_type: Any = "cuda") -> None:
        # torch looks `device_type` up as an attribute of the torch module.
        if device_type not in _DEVICE_TYPES:
            raise ForbiddenError(
                f"save_on_cpu(device_type={device_type!r}) is not available in gradtrace: "
                f"name one of {', '.join(sorted(_DEVICE_TYPES))}"
            )
        super().__init__(bool(pin_memory), device_type)


for _cls, _name in ((SavedTensorsHooks, "saved_tensors_hooks"), (SaveOnCpu, "save_on_cpu")):
    _cls.__name__ = _cls.__qualname__ = _name
    _cls.__module__ = "torch.autograd.graph"

MEMBERS: dict[str, Any] = {
    "saved_tensors_hooks": SavedTensorsHooks,
    "save_on_cpu": SaveOnCpu,
}


def reset() -> None:
    """Pop whatever saved-tensor hooks a job left pushed (a `with` it never left)."""
    while torch._C._autograd._top_saved_tensors_default_hooks(False) is not None:
        torch._C._autograd._pop_saved_tensors_default_hooks()

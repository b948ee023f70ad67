"""copy.deepcopy for programs: `target_net = copy.deepcopy(policy_net)`, the best weights
kept with `copy.deepcopy(model.state_dict())`.

Python's deepcopy follows whatever an object's reduce protocol names, so what it may copy
is walked first, by type, before anything is copied: numbers and text, containers,
tensors and arrays, torch's modules and the program's objects and modules. Anything else
(an optimizer, a loader, a generator, a distribution) is refused, and the walk bounds the
objects copied, their nesting and the tensor elements made (the copies count toward the
job's budget as they are made). Functions and classes, Python's and the program's, are
not copied but shared, as Python's deepcopy shares them.
"""

from __future__ import annotations

import collections
import copy
import functools
import types
import weakref
from typing import Any

import numpy as np
import torch
from torch import Tensor, nn

from gradtrace.language import callables
from gradtrace.language.classes import is_program_object
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.values import Namespace, UserFunction

# Copied as they are by Python's own deepcopy (immutable, or functions and classes).
_ATOMIC = (
    int, float, complex, bool, str, bytes, type(None), type(Ellipsis), range, slice,
    torch.dtype, torch.device, torch.layout, torch.memory_format, np.generic, np.dtype,
    type, types.FunctionType, types.BuiltinFunctionType, weakref.ref, property,
)  # fmt: skip
# The program's functions: shared, as Python shares functions.
_SHARED = (UserFunction, callables.Checked)
_SEQUENCES = (list, tuple, set, frozenset, collections.deque)
_NESTING = 100


def _walk(root: Any, items_limit: int, elements_limit: int) -> dict[int, Any]:
    """What deepcopy(root) would copy, checked; the objects it is to share, by id."""
    shared: dict[int, Any] = {}
    seen: set[int] = set()
    storages: set[tuple[int, str]] = set()
    elements = 0
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        obj, depth = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if len(seen) > items_limit:
            raise LimitError(f"copy.deepcopy of more than {items_limit:,} objects")
        if depth > _NESTING:
            raise LimitError(f"copy.deepcopy of objects nested more than {_NESTING} deep")
        if isinstance(obj, _ATOMIC):
            continue
        if isinstance(obj, _SHARED):
            shared[id(obj)] = obj
            continue
        if isinstance(obj, Namespace):
            if obj.shown is None:
                raise TypeError("cannot pickle 'module' object")  # as Python says
            raise ForbiddenError(f"copy.deepcopy of a {obj.shown} is not available in gradtrace")
        inner = depth + 1
        if isinstance(obj, Tensor):
            elements += _stored(obj, storages)
            if obj.grad is not None:
                elements += _stored(obj.grad, storages)
            stack.extend((value, inner) for value in vars(obj).values())
        elif isinstance(obj, np.ndarray):
            elements += obj.size
        elif isinstance(obj, _SEQUENCES):
            stack.extend((item, inner) for item in obj)
        elif isinstance(obj, dict):
            stack.extend((item, inner) for pair in obj.items() for item in pair)
            if isinstance(obj, collections.defaultdict):
                stack.append((obj.default_factory, inner))
        elif isinstance(obj, nn.Module) or is_program_object(obj):
            stack.extend((value, inner) for value in vars(obj).values())
        elif isinstance(obj, functools.partial):
            stack.extend((item, inner) for item in (obj.func, *obj.args, *obj.keywords.values()))
        elif isinstance(obj, types.MethodType):
            stack.extend(((obj.__func__, inner), (obj.__self__, inner)))
        else:
            raise ForbiddenError(
                f"copy.deepcopy of {type(obj).__name__} objects is not available in gradtrace: it "
                "copies numbers, text, containers, tensors, arrays, modules and the "
                "program's objects"
            )
        if elements > elements_limit:
            raise LimitError(
                f"copy.deepcopy would copy {elements:,} tensor elements; the limit is "
                f"{elements_limit:,}"
            )
    return shared


def _stored(t: Tensor, storages: set[tuple[int, str]]) -> int:
    """Elements a copy of `t` makes: torch copies its whole storage (a view of a large
    tensor copies all of it), once however many views of it are copied."""
    try:
        storage = t.untyped_storage()
        key = (storage.data_ptr(), str(storage.device))
    except (RuntimeError, NotImplementedError):  # no storage of its own: its elements
        return t.numel()
    if key in storages:
        return 0
    storages.add(key)
    return max(storage.nbytes() // max(t.element_size(), 1), t.numel())


def deepcopy(x: Any, memo: Any = None) -> Any:
    """A deep copy of x (Python's copy.deepcopy): tensors, modules, containers, your objects."""
    if memo is not None:
        raise ForbiddenError("copy.deepcopy(x, memo) is not available: call copy.deepcopy(x)")
    interp = callables.current()
    limits = interp.limits
    memo = _walk(x, limits.sequence_items, limits.total_elements)
    result = copy.deepcopy(x, memo)
    # The tensors it made count toward the job's budget; a module's parameters are
    # adopted as leaves by the call path instead, as a constructed module's are.
    if isinstance(result, nn.Module):
        made = list(result.buffers())
    else:  # memo maps each copied object's id to its copy
        made = [value for value in memo.values() if isinstance(value, Tensor)]
    rec = interp.rec
    for tensor in made:
        rec.untracked(tensor)
    # The budget counts a view by its elements, but its copy holds the whole storage:
    # the process's memory is read now rather than some steps later.
    interp.memory.check()
    return result

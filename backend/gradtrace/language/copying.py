"""copy.deepcopy for programs: `target_net = copy.deepcopy(policy_net)`, the best weights
kept with `copy.deepcopy(model.state_dict())`.

Python's deepcopy follows whatever an object's reduce protocol names, and a program's
`__hash__` runs while it rebuilds a dict, so a check made before it copies could be
outrun. The copy is gradtrace's own instead, object by object, each checked as it is
copied: numbers and text (shared, as Python shares them), containers, tensors and
arrays, torch's modules and the program's objects and modules, rebuilt as Python's
deepcopy rebuilds them. Functions and classes are shared. Anything else (an optimizer, a
loader, a generator, a distribution) is refused. The objects copied, their nesting and
the elements of the tensors and arrays made are bounded as they are made, and the copies
count toward the job's budget.
"""

from __future__ import annotations

import collections
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

# Shared, not copied, as Python's deepcopy shares them (by exact type: a subclass of int
# or str would be copied through its reduce protocol).
_SHARED = frozenset(
    {
        int, float, complex, bool, str, bytes, type(None), type(Ellipsis), range,
        torch.dtype, torch.device, torch.layout, torch.memory_format, torch.Size,
        types.FunctionType, types.BuiltinFunctionType, weakref.ref, property,
        UserFunction, callables.Checked,
    }
)  # fmt: skip
_NESTING = 100


class _Copier:
    """One deepcopy: what it has copied (by the original's id) and what it has made."""

    def __init__(self, items_limit: int, elements_limit: int) -> None:
        self.memo: dict[int, Any] = {}
        self.items_limit = items_limit
        self.elements_limit = elements_limit
        self.elements = 0
        self.storages: set[tuple[int, str]] = set()
        self.tensors: list[Tensor] = []
        # The originals, alive until the copy ends: an id is not reused meanwhile.
        self.originals: list[Any] = []

    def copy(self, obj: Any, depth: int = 0) -> Any:
        kind = type(obj)
        if kind is callables.Checked and type(obj.fn) is types.MethodType:
            return self._method(obj, depth)
        if kind in _SHARED or isinstance(obj, (type, np.generic, np.dtype)):
            return obj
        found = self.memo.get(id(obj))
        if found is not None:
            return found
        if depth > _NESTING:
            raise LimitError(f"copy.deepcopy of objects nested more than {_NESTING} deep")
        if len(self.memo) >= self.items_limit:
            raise LimitError(f"copy.deepcopy of more than {self.items_limit:,} objects")
        self.originals.append(obj)
        inner = depth + 1
        if kind is list:
            made: Any = self._keep(obj, [])
            made.extend(self.copy(item, inner) for item in obj)
            return made
        if kind is tuple:
            items = [self.copy(item, inner) for item in obj]
            return self._keep(obj, obj if all(a is b for a, b in zip(items, obj)) else tuple(items))
        if kind in (dict, collections.OrderedDict, collections.Counter):
            return self._fill(obj, self._keep(obj, kind()), inner)
        if kind is collections.defaultdict:
            factory = self.copy(obj.default_factory, inner)
            return self._fill(obj, self._keep(obj, collections.defaultdict(factory)), inner)
        if kind is set or kind is frozenset:
            return self._keep(obj, kind(self.copy(item, inner) for item in obj))
        if kind is collections.deque:
            copied = collections.deque((self.copy(item, inner) for item in obj), obj.maxlen)
            return self._keep(obj, copied)
        if kind is slice:
            parts = (self.copy(part, inner) for part in (obj.start, obj.stop, obj.step))
            return self._keep(obj, slice(*parts))
        if kind is Tensor or kind is nn.Parameter:
            return self._tensor(obj)
        if kind is np.ndarray:
            self._count(obj.size)
            return self._keep(obj, obj.copy())
        if kind is functools.partial:
            func = self.copy(obj.func, inner)
            args = [self.copy(arg, inner) for arg in obj.args]
            keywords = {key: self.copy(value, inner) for key, value in obj.keywords.items()}
            return self._keep(obj, functools.partial(func, *args, **keywords))
        if kind is types.MethodType:
            return self._keep(obj, types.MethodType(obj.__func__, self.copy(obj.__self__, inner)))
        if isinstance(obj, nn.Module) or (is_program_object(obj) and _plain_object(obj)):
            return self._object(obj, inner)
        if kind is Namespace:
            if obj.shown is None:
                raise TypeError("cannot pickle 'module' object")  # as Python says
            raise ForbiddenError(f"copy.deepcopy of a {obj.shown} is not available in gradtrace")
        raise ForbiddenError(
            f"copy.deepcopy of {kind.__name__} objects is not available in gradtrace: it "
            "copies numbers, text, containers, tensors, arrays, modules and the program's "
            "objects"
        )

    def _method(self, method: callables.Checked, depth: int) -> Any:
        """`self.f = self.get` copied: bound to the copy of its object, as Python's
        deepcopy rebinds a method (a builtin's method stays shared, as Python's does)."""
        found = self.memo.get(id(method))
        if found is not None:
            return found
        self.originals.append(method)
        owner = self.copy(method.owner, depth + 1)
        rebound = types.MethodType(method.fn.__func__, owner)
        return self._keep(method, callables.Checked(rebound, owner, method.name))

    def _keep(self, obj: Any, made: Any) -> Any:
        self.memo[id(obj)] = made
        return made

    def _fill(self, obj: dict[Any, Any], made: dict[Any, Any], inner: int) -> dict[Any, Any]:
        for key, value in obj.items():
            made[self.copy(key, inner)] = self.copy(value, inner)
        return made

    def _count(self, elements: int) -> None:
        self.elements += elements
        if self.elements > self.elements_limit:
            raise LimitError(
                f"copy.deepcopy would copy {self.elements:,} tensor and array elements; the "
                f"limit is {self.elements_limit:,}"
            )

    def _tensor(self, t: Tensor) -> Tensor:
        """torch's own copy (its storage shared between the copies of views of it, as
        torch shares it), counted by the storage it copies."""
        if vars(t):
            raise ForbiddenError("copy.deepcopy of a tensor with attributes of its own")
        storage = t.untyped_storage()
        key = (storage.data_ptr(), str(storage.device))
        if key not in self.storages:
            self.storages.add(key)
            self._count(max(storage.nbytes() // max(t.element_size(), 1), t.numel()))
        if t.grad is not None:
            self._count(t.grad.numel())
        made: Tensor = t.__deepcopy__(self.memo)
        self.tensors.append(made)
        return made

    def _object(self, obj: Any, inner: int) -> Any:
        """A module or an object of the program's, rebuilt as Python's deepcopy rebuilds
        it: a new instance of its class (no __init__), given a copy of its state."""
        cls: Any = type(obj)
        made = self._keep(obj, cls.__new__(cls))  # no __init__, as Python's deepcopy
        state = {name: self.copy(value, inner) for name, value in vars(obj).items()}
        if isinstance(made, nn.Module):
            made.__setstate__(state)  # torch's: an LSTM rebuilds its flat weights
        else:
            vars(made).update(state)
        return made


def _plain_object(obj: Any) -> bool:
    """An object of one of the program's plain classes (not one that subclasses a builtin
    container or an exception: those are copied by their own protocols)."""
    return not isinstance(obj, (list, dict, set, tuple, BaseException, Tensor))


def deepcopy(x: Any, memo: Any = None) -> Any:
    """A deep copy of x (Python's copy.deepcopy): tensors, modules, containers, your objects."""
    if memo is not None:
        raise ForbiddenError("copy.deepcopy(x, memo) is not available: call copy.deepcopy(x)")
    interp = callables.current()
    copier = _Copier(interp.limits.sequence_items, interp.limits.total_elements)
    result = copier.copy(x)
    rec = interp.rec
    # A module's parameters are adopted as leaves by the call path (while recording), as
    # a constructed module's are; every other tensor made counts toward the budget.
    adopted = set()
    if isinstance(result, nn.Module) and rec.active:
        adopted = {id(p) for p in result.parameters()}
    for tensor in copier.tensors:
        if id(tensor) not in adopted:
            rec.untracked(tensor)
    # The budget counts a view by its elements, but its copy holds the whole storage, and
    # arrays are not in it: the process's memory is read now, not some steps later.
    interp.memory.check()
    return result

"""Calls of methods, reached from the one call path: `owner.name(...)` of a Python
container, a string, an optimizer or a Module (checks keyed on the owner's type and the
method's name), a Module's own call, and a tensor's methods.

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import collections
from collections.abc import Iterator, Sized
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from gradtrace.language import arrays, broadcasts, distributions, module_sizes, sizes
from gradtrace.language.arithmetic import MODULE_LISTS
from gradtrace.language.attributes import attribute_allowed, width_method
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.pymodules import bounded_args, bounded_iterable
from gradtrace.language.runtime import (
    _ATTENTION,
    _CONSUMING_TYPES,
    _HASHING_TYPES,
    _ITERABLE_METHODS,
    _NAMING_METHODS,
    _SPARSE,
    Tensor,
    _check_attention,
    _guard_attention,
    _hashed_items,
    _keys,
    _refuse_meta,
    _refuse_private_names,
    _tensor_inputs,
    _zero_fill,
    check_range_search,
)
from gradtrace.language.values import ModuleTable

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


# The hashing containers whose methods take a key (Counter, OrderedDict, defaultdict).
_KEYED = frozenset({collections.Counter, collections.OrderedDict, collections.defaultdict})
# Methods that keep or compare their argument and never iterate it: a tensor of many rows
# goes in a list whole (xs.append(batch)), with no tensor made per row.
_STORING_METHODS = frozenset(
    {"append", "appendleft", "insert", "add", "remove", "discard", "index", "count"}
)


def call_method(
    self: Interpreter,
    owner: Any,
    name: str,
    method: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
) -> Any:
    """`owner.name(*args, **kwargs)`, whether written so or called through a Checked;
    `method` is the real bound method read when the program read `owner.name` (None:
    read it now). Checks are keyed on the owner's type and the method's name."""
    if isinstance(owner, Tensor):
        return self.call_tensor_method(owner, name, args, kwargs, node, label)
    if method is None:
        method = getattr(owner, name)
    if isinstance(owner, (np.ndarray, np.generic)):
        if args or kwargs:  # `a.astype("U9")`, `a.sum(dtype=...)`: a dtype read, not called
            arrays.check_array_method(owner, name, args, kwargs)
        result = method(*args, **kwargs)
        arrays.result_array(name, result)
        return self.after_call(result, args, kwargs, node, label)
    if args or kwargs:
        # `xs.sort(key=torch.Tensor)`: a class it may call, checked
        args, kwargs = self.classes_checked(args, kwargs)
    kind = type(owner)
    limits = self.limits
    if distributions.is_distribution(owner):
        distributions.check_method(owner, name, args, kwargs, limits.tensor_elements)
    if kind is ModuleTable:  # self._modules.get(key): torch's dict hashes the key
        for arg in args:
            sizes.check_nesting(arg)
    if (
        kind in _CONSUMING_TYPES or kind is str or kind is list or kind is set or kind is frozenset
    ) and name not in _STORING_METHODS:
        args = bounded_args(args)  # "".join / list.extend / deque.extend of an iterator
        for arg in args:  # deque.extend(range(...)), Counter.update(range(...)): read in C
            if type(arg) is range and len(arg) > limits.sequence_items:
                raise LimitError(f"{kind.__name__}.{name} of a huge range is over the limit")
        if kind in _KEYED:
            for arg in args:  # c.get(key), od.pop(key): a key hashed in C (sets: below)
                if isinstance(arg, (tuple, frozenset)):
                    sizes.check_nesting(arg)
        if name == "fromkeys" and args:  # dict.fromkeys(keys): C hashes each key
            keys = _hashed_items(args[0], mapping=False)
            if isinstance(keys, Sized) and len(keys) > limits.sequence_items:
                raise LimitError(
                    f"fromkeys() of {len(keys):,} keys is over the limit "
                    f"({limits.sequence_items:,} items of one dict)"
                )
            args = (keys, *args[1:])
        elif kind in _HASHING_TYPES and name in _ITERABLE_METHODS:
            # dict and OrderedDict take an object with .keys() as a mapping; sets and
            # Counter iterate it.
            mapping = kind is not set and kind is not frozenset and kind is not collections.Counter
            args = tuple(_hashed_items(a, mapping) for a in args)  # items hashed in C
    if kind is str:
        if name == "format":
            return self.format_string(owner, args, kwargs)
        if width_method(name) and args:
            width = args[0]
            if isinstance(width, int) and width > limits.string_chars:
                raise LimitError(f"str.{name}({width}) is over the string limit")
        elif name == "join" and args:
            if isinstance(args[0], Iterator):  # a generator: C reads it into a list first
                args = (list(bounded_iterable(args[0])), *args[1:])
            parts = args[0] if isinstance(args[0], (list, tuple)) else ()
            total = sum(len(p) for p in parts if type(p) is str) + len(owner) * len(parts)
            if total > limits.string_chars:
                raise LimitError(f"joining {total:,} characters is over the string limit")
    elif kind is list or kind is set or kind is dict or kind is frozenset or kind is tuple:
        if name in ("count", "index", "remove") and args and (kind is list or kind is tuple):
            broadcasts.check_each(args[0], owner, limits.tensor_elements)
        elif name == "sort" and kind is list:  # compares its items in C, as sorted() does
            broadcasts.check_combined("sort", owner, (), limits.tensor_elements)
            if kwargs.get("key") is not None:  # or the keys
                key = broadcasts.checked_key(kwargs["key"], "sort", limits.tensor_elements)
                kwargs = {**kwargs, "key": key}
        if (
            name == "extend"
            and args
            and isinstance(args[0], (list, tuple))
            and len(owner) + len(args[0]) > limits.sequence_items
        ):
            raise LimitError(
                f"a list of {len(owner) + len(args[0]):,} items is over the limit "
                f"({limits.sequence_items:,})"
            )
        for arg in args:
            if isinstance(arg, range) and len(arg) > limits.sequence_items:
                raise LimitError(f"{kind.__name__}.{name} of a huge range is over the limit")
        if kind is not list:
            for arg in args:
                if isinstance(arg, (tuple, frozenset)):
                    sizes.check_nesting(arg)  # a key
                elif type(arg) is list:
                    _keys(arg)  # keys (set.update) or key-value pairs (dict.update)
    elif kind is range:
        if name in ("count", "index") and args and type(args[0]) not in (int, bool):
            if isinstance(args[0], np.integer):  # the int it equals: found in O(1)
                args = (int(args[0]), *args[1:])
            else:
                check_range_search(owner, args[0], f"range.{name}()")
    elif kind is collections.deque:
        if name in ("count", "index", "remove") and args:  # compare with each item, in C
            broadcasts.check_each(args[0], owner, limits.tensor_elements)
    elif kind is collections.Counter:
        broadcasts.check_counted(owner, name, args, kwargs, limits.tensor_elements)
    elif isinstance(owner, torch.optim.Optimizer):
        if name == "step":
            for group in owner.param_groups:
                for p in group["params"]:
                    self.rec.before_inplace(p, node)
        elif name == "zero_grad":
            self.rec.grads_may_change(node)
    elif isinstance(owner, nn.Module):
        if name == "zero_grad":
            self.rec.grads_may_change(node)
        _refuse_meta(args, kwargs, name == "to")
        if name in _NAMING_METHODS:
            for arg in (*args, *kwargs.values()):
                _refuse_private_names(arg)
        if name == "extend" and isinstance(owner, MODULE_LISTS):
            # torch's own loop reads the iterable (itertools.repeat(layer) for good): read
            # here through the item cap, and the list it grows to checked below.
            args = bounded_args(args)
        if name == "__init__":
            self.check_base_init(owner, method, args, kwargs)
        elif name == "forward" and isinstance(owner, _ATTENTION):
            # m.forward(...) and super().forward(...) run no hooks: checked here.
            _check_attention(limits.tensor_elements, owner, args, kwargs)
        elif name == "register_forward_pre_hook":
            result = method(*args, **kwargs)
            _guard_attention(owner, limits.tensor_elements)  # the check stays the last hook
            return self.after_call(result, args, kwargs, node, label)
    result = method(*args, **kwargs)
    if name in _DEVICE_MOVES and isinstance(owner, nn.Module) and torch.cuda.is_initialized():
        torch.cuda.synchronize()  # its parameters may have been copied as below
    if name in _GROWING_METHODS and (kind in _GROWN_TYPES or isinstance(owner, MODULE_LISTS)):
        # Each read is capped, not what the container holds after it, again and again.
        self.check_size(owner)
    return self.after_call(result, args, kwargs, node, label)


# What copies a tensor between devices, and may be asked to do it non_blocking.
_DEVICE_MOVES = frozenset({"to", "cpu", "type"})


def _copies_landed(result: Tensor) -> None:
    """A GPU-to-host copy asked non_blocking lands in pinned memory from torch's caching
    host allocator, which nothing zeroes: read before the copy ends, it would show what an
    earlier job left there. So the copy has ended before the program or the trace reads it."""
    if not result.is_cuda:
        torch.cuda.synchronize()


# Methods that add what an iterable holds, and the containers they grow.
_GROWING_METHODS = frozenset({"extend", "extendleft", "update"})
_GROWN_TYPES = frozenset(
    {
        list, set, dict, collections.deque, collections.Counter, collections.OrderedDict,
        collections.defaultdict,
    }
)  # fmt: skip


def check_base_init(
    self: Interpreter, owner: nn.Module, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """`super().__init__(...)` of a torch Module class allocates its parameters."""
    func = getattr(method, "__func__", None)
    for klass in type(owner).__mro__:
        if klass.__dict__.get("__init__") is func:
            if "gradtrace_members" not in klass.__dict__ and klass is not nn.Module:
                module_sizes.check_module_class(
                    klass, args, kwargs, self.limits.tensor_elements, self.limits.total_elements
                )
                _refuse_meta(args, kwargs, True)
            return


def call_module(
    self: Interpreter,
    module: nn.Module,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
    name: str,
) -> Any:
    """Call a Module with its dotted path on the recorder's stack, so its nodes group by it."""
    if isinstance(module, nn.Embedding) and module.sparse:
        raise ForbiddenError(_SPARSE)
    stack = self.rec.module_stack
    path = f"{stack[-1]}.{name}" if stack and name else (name or type(module).__name__)
    stack.append(path)
    try:
        result = module(*args, **kwargs)
        # torch's layers are not pre-checked (a padding or a kernel makes the size):
        # what they made is checked before the program holds it.
        if isinstance(result, Tensor):
            self.check_size(result)
        elif isinstance(result, tuple):
            self.check_sizes(result)
        if isinstance(result, Tensor) and not self.rec.active:
            self.rec.untracked(result)
        # Recorded inside the module: the Nodes torch made in its forward belong to it.
        elif self.rec.active:
            inputs = _tensor_inputs(args, kwargs)
            if isinstance(result, Tensor):
                self.rec.result(result, node, label, inputs)
            elif isinstance(result, tuple):
                for item in result:
                    if isinstance(item, Tensor):
                        self.rec.result(item, node, label, inputs)
    finally:
        stack.pop()
    return result


def call_tensor_method(
    self: Interpreter,
    obj: Tensor,
    name: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
) -> Any:
    """`obj.name(...)` of a tensor, written so or called through a Checked."""
    if not attribute_allowed(obj, name):
        where = node.func if isinstance(node, ast.Call) else node
        self.get_attr(obj, name, where or ast.Pass())  # raises the right error
    special = self.rec.tensor_special(name)
    if special is not None:
        handled = special(obj, args, kwargs, node)
        self.made.registered(handled)  # register_hook: removed when the job ends
        return handled
    method = getattr(obj, name)
    if not callable(method):
        raise TypeError(f"'{type(method).__name__}' object is not callable")
    sizes.check_call(name, method, args, kwargs, self.limits.tensor_elements, method_of=obj)
    if kwargs or name == "to":
        _refuse_meta(args, kwargs, name == "to")
    if name in sizes.UNINITIALISED:
        result = method(*args, **kwargs)
        if isinstance(result, Tensor):
            _zero_fill(result)
        return self.after_call(result, (obj, *args), kwargs, node, label)
    if name.endswith("_"):
        self.rec.before_inplace(obj)
        before = self.rec.node_of(obj) if self.rec.active else None
        result = method(*args, **kwargs)
        if result is obj:
            self.rec.inplace_result(obj, node, label, before, *args)
            return result
    else:
        result = method(*args, **kwargs)
        if name in _DEVICE_MOVES and isinstance(result, Tensor) and obj.is_cuda:
            _copies_landed(result)
    if isinstance(result, Tensor):
        self.check_size(result)
        if self.rec.active:
            self.rec.result(result, node, label, (obj, *_tensor_inputs(args, kwargs)))
        else:
            self.rec.untracked(result)
    elif isinstance(result, tuple):
        self.check_sizes(result)
        if self.rec.active:
            inputs = (obj, *_tensor_inputs(args, kwargs))
            for item in result:
                if isinstance(item, Tensor):
                    self.rec.result(item, node, label, inputs)
    elif type(result) is list:
        self.check_size(result)
    else:
        self.made.registered(result)  # register_post_accumulate_grad_hook
    return result

"""The one call path: every call, written or made from inside Python or torch through a
Checked, is checked here on its callee (sizes, refusals, the recorder's specials), and
what it returned is checked and recorded (after_call).

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import collections
import functools
import inspect
import itertools
import math
import time
from collections.abc import Iterator
from types import MethodType
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin

from gradtrace.identity import identity
from gradtrace.language import broadcasts, distributions, module_sizes, sizes
from gradtrace.language.callables import Checked, Unbound
from gradtrace.language.class_values import CONTAINERS, items_checked
from gradtrace.language.classes import DATASET_BASES, is_program_class
from gradtrace.language.copying import deepcopy
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.generators import generator_in_mode
from gradtrace.language.legacy_vmap import RUNNING as LEGACY_VMAP_RUNNING
from gradtrace.language.legacy_vmap import refuse as refuse_batched
from gradtrace.language.module_tables import module_parameters
from gradtrace.language.namespaces import TORCH_CALLABLES
from gradtrace.language.pymodules import (
    ITERATING,
    RANDOM_FUNCTIONS,
    bounded_args,
    bounded_iterable,
    check_rows,
    choices,
)
from gradtrace.language.runtime import (
    _CONSUMING_TYPES,
    _HASHING_TYPES,
    _LEGACY_TENSOR_TYPES,
    _SPARSE,
    _SPECIAL_FUNCTIONS,
    Tensor,
    _check_gradcheck,
    _check_lazy_layer,
    _check_printoptions,
    _guard_attention,
    _hashed_items,
    _refuse_meta,
    _refuse_private_names,
    _tensor_inputs,
    _unchecked,
    _zero_fill,
)
from gradtrace.language.tensor_text import scrub
from gradtrace.language.values import (
    Namespace,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


# What a numpy scalar type may be called with: one number (or its text).
_SCALARS = (bool, int, float, complex, str, np.generic)
# The dicts whose fromkeys a program may call on the class (a subclass would run its __init__ twice).
_DICT_CLASSES = (dict, collections.OrderedDict, collections.defaultdict)
# math.fsum and math.prod read an iterator to its end in C, past every alarm.
_SUMMING = frozenset({identity(math.fsum), identity(math.prod)})
# torch functions that call a function they are handed (a class among their arguments
# reaches them as its checked value, class_values.py), and those above: not the fast path.
_NOT_FAST = _SUMMING | {
    identity(torch.autograd.function.once_differentiable),
    identity(torch.autograd.gradcheck),
    identity(torch.autograd.gradgradcheck),
}


def invoke(
    self: Interpreter,
    target: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
    name: str,
) -> Any:
    """The one call path: every call of a program, and every Checked called from inside
    Python or torch, comes here. Its checks are keyed on the callee (the identity of
    the real function; for a method, its owner's type and its name); `name` is only
    the label a Module call is grouped under."""
    kind = type(target)
    if kind is UserFunction:
        return self.call_user(target, args, kwargs)
    if kind is Checked:
        owner = target.owner
        if owner is not None:
            mname = target.name
            if type(owner) is Unbound:
                if isinstance(inspect.getattr_static(owner.cls, mname, None), staticmethod):
                    # tqdm.write: a static method of an admitted class takes no instance.
                    result = target.fn(*args, **kwargs)
                    return self.after_call(result, args, kwargs, node, label)
                if mname == "fromkeys" and owner.cls in _DICT_CLASSES:
                    # A classmethod: dict.fromkeys(keys) is a new dict's, checked as one.
                    empty: dict[Any, Any] = owner.cls()
                    return self.call_method(empty, mname, None, args, kwargs, node, label)
                if not args or not isinstance(args[0], owner.cls):
                    raise TypeError(
                        f"descriptor '{mname}' for '{owner.cls.__name__}' objects needs "
                        f"a '{owner.cls.__name__}' as its first argument"
                    )
                # The class's own method bound to the instance (not a subclass's).
                method = target.fn.__get__(args[0], owner.cls)
                return self.call_method(args[0], mname, method, args[1:], kwargs, node, label)
            return self.call_method(owner, mname, target.fn, args, kwargs, node, label)
        target = target.fn
        kind = type(target)
    elif kind is Namespace:
        raise TypeError("'module' object is not callable")
    for arg in args:
        if type(arg) is range and len(arg) > self.limits.sequence_items:
            raise LimitError(f"a range of {len(arg):,} items is over the limit")
    callee = identity(target)
    fname = TORCH_CALLABLES.get(callee)
    if (
        fname is not None
        and callee not in _NOT_FAST
        and not isinstance(target, nn.Module)
        and self.rec.special_call(target) is None
    ):
        # The commonest call, a torch function: its own checks; none of the rest applies.
        fresh = _check_torch_call(self, fname or name, target, args, kwargs)
        result = target(*args, **kwargs)
        if fresh and isinstance(result, Tensor):
            _zero_fill(result)
        return self.after_call(result, args, kwargs, node, label)
    if len(args) == 1 and not kwargs:
        in_mode = generator_in_mode(target, args[0])  # torch.no_grad()(gen), no_grad(gen)
        if in_mode is not None:
            return in_mode
    if not (isinstance(target, type) and is_program_class(target)):
        # Python's or torch's code may call a class it is handed: as the program's checked
        # value, its call comes back here (class_values.py).
        args, kwargs = self.classes_checked(args, kwargs)
    if kind is _LRU_CACHED or (kind is MethodType and type(target.__func__) is _LRU_CACHED):
        # functools.lru_cache hashes its arguments in C, which recurses without a depth check
        for arg in (*args, *kwargs.values()):
            sizes.check_nesting(arg)
    if callee in ITERATING:  # itertools.chain(t), functools.reduce(f, t): rows bounded
        for arg in args:
            check_rows(arg)
    elif callee in _SUMMING:
        args = bounded_args(args)
        if target is math.prod and args:  # math.prod(tensors) multiplies them in C
            start = (kwargs["start"],) if "start" in kwargs else ()
            limit = self.limits.tensor_elements
            args = (broadcasts.check_combined("prod", args[0], start, limit), *args[1:])
    if target is itertools.accumulate and args and len(args) < 2 and "func" not in kwargs:
        # accumulate(tensors) adds them in C (with a func, each call is checked)
        start = (kwargs["initial"],) if kwargs.get("initial") is not None else ()
        limit = self.limits.tensor_elements
        args = (broadcasts.check_combined("accumulate", bounded_args(args)[0], start, limit),)
    if target is itertools.groupby and args:  # compares each key with the one before, in C
        key = args[1] if len(args) > 1 else kwargs.get("key")
        limit = self.limits.tensor_elements
        kwargs = {"key": broadcasts.consecutive_key(key, "groupby", limit)}
        args = (bounded_args(args[:1])[0],)
    special = self.rec.special_call(target)
    if special is not None:
        # autograd.grad and backward read their outputs, inputs and gradients into tuples:
        # read once here, so that the count and the recorder see what torch gets (a
        # generator read by the recorder would reach torch empty).
        args = tuple(_read_once(a) for a in args)
        kwargs = {k: _read_once(v) for k, v in kwargs.items()}
        sizes.check_tensor_count(args, kwargs)  # autograd.grad: a gradient per input
        return special(args, kwargs, node)
    limit = self.limits.tensor_elements
    fresh = False
    if kind is type or isinstance(target, type):
        if target in CONTAINERS:  # Python's containers, as classes: called as their builtins
            # type(x) and x.__class__ answer with Python's own list, set, dict...: called,
            # each is the builtin of that name, which bounds what C reads and hashes.
            target = self.builtin_table[target.__name__]
        elif issubclass(target, nn.Module):
            # A program's class runs its own __init__, whose layers are checked as they
            # are made (measuring the class on meta would run the program's code twice);
            # one that inherits torch's __init__ is measured as that torch class.
            measured = _init_class(target)
            if measured is not None:
                module_sizes.check_module_class(
                    measured, args, kwargs, limit, self.limits.total_elements
                )
            _refuse_meta(args, kwargs, True)
            if issubclass(target, (nn.ParameterDict, nn.ModuleDict, nn.Sequential)):
                # Their keys become attribute names: a generator of (name, value) pairs
                # is read here, once, so that its names are checked too.
                args = tuple(_read_once(a) for a in args)
                for arg in (*args, *kwargs.values()):
                    _refuse_private_names(arg)
        elif issubclass(target, torch.optim.lr_scheduler.LRScheduler):
            # LambdaLR(opt, [f, g]): a function per group, called by torch with the epoch.
            args = tuple(items_checked(self, a) for a in args)
            kwargs = {k: items_checked(self, v) for k, v in kwargs.items()}
        elif issubclass(target, torch.optim.Optimizer) and kwargs.get("foreach"):
            kwargs = {**kwargs, "foreach": False}
        elif target is torch.autograd.Function:
            raise TypeError("torch.autograd.Function is used by subclassing it")
        elif distributions.is_family(target):
            distributions.check_new(target, args, kwargs, limit)
        elif target in DATASET_BASES:
            # torch's own instance would reach the program: its repr shows its address,
            # and adding two makes a ConcatDataset (a program's subclass refuses that).
            raise ForbiddenError(
                f"{target.__name__} is used by subclassing it: `class MyData({target.__name__}):`"
            )
        elif target is torch.device or target is torch.Generator:
            _refuse_meta(args, kwargs, True)
        elif issubclass(target, np.ndarray):
            # Reachable as np.ndarray, type(a), a.__class__: its constructor hands out
            # uninitialised memory, or a view of any size over a buffer with any strides.
            raise ForbiddenError(
                "numpy.ndarray(...) makes uninitialised memory: make arrays with np.zeros, "
                "np.ones, np.array or np.arange"
            )
        elif issubclass(target, np.generic):
            # np.float64([...]) makes an array, of a size nothing checked: scalars only.
            for arg in (*args, *kwargs.values()):
                if not isinstance(arg, _SCALARS) and not (
                    isinstance(arg, (Tensor, np.ndarray)) and arg.ndim == 0
                ):
                    raise ForbiddenError(
                        f"numpy.{target.__name__}(...) takes one number here; for an array "
                        f"write np.array(values, dtype=np.{target.__name__})"
                    )
        elif target is str:
            for arg in args:
                self.check_printable(arg)
        elif target in _CONSUMING_TYPES:
            args = bounded_args(args)  # deque(itertools.count()) stops at the limit
            if target in _HASHING_TYPES:  # Counter(it): each item hashed in C, bounded first
                first = 1 if target is collections.defaultdict else 0  # its factory
                mapping = target is not collections.Counter  # it counts what it iterates
                args = (*args[:first], *(_hashed_items(a, mapping) for a in args[first:]))
        elif issubclass(target, Tensor) or target in _LEGACY_TENSOR_TYPES:
            # torch.Tensor(n) allocates n uninitialised elements, as torch.empty does;
            # torch.LongTensor([n, n]) and torch.FloatTensor(array) are data, as torch.tensor
            # takes it (not zero-filled after).
            data = (
                bool(args)
                and isinstance(args[0], (list, tuple, Tensor, np.ndarray))
                and type(args[0]) is not torch.Size
            )
            if data:
                sizes.check_call("tensor", torch.tensor, args[:1], {}, limit)
            else:
                sizes.check_call("empty", torch.empty, args, kwargs, limit)
            fresh = not data
    elif fname is not None:  # math.fsum and math.prod, their items read above
        fresh = _check_torch_call(self, fname or name, target, args, kwargs)
    elif callee in RANDOM_FUNCTIONS and len(args) + len(kwargs) > 1:
        operands = (*args, *kwargs.values())
        if target is choices:  # it adds up its weights
            weights = args[1] if len(args) > 1 else kwargs.get("weights", kwargs.get("cum_weights"))
            if type(weights) is list or type(weights) is tuple:
                operands = (*operands, *weights)
        broadcasts.check_operands(getattr(target, "__name__", name), operands, limit)
    if isinstance(target, nn.Module):
        return self.call_module(target, args, kwargs, node, label, name)
    result = target(*args, **kwargs)
    if fresh and isinstance(result, Tensor):
        _zero_fill(result)
    if isinstance(result, nn.Module) and (isinstance(target, type) or target is deepcopy):
        # Its own size rule (Conv2d squares an int kernel, LSTM has 4 gates) is torch's:
        # what the constructor made is checked before the program holds it.
        for _, param in module_parameters(result):
            self.check_size(param)
        if isinstance(result, LazyModuleMixin):
            # Its weight is made by a pre-hook at the first call, sized by the input.
            result.register_forward_pre_hook(
                functools.partial(_check_lazy_layer, limit), prepend=True, with_kwargs=True
            )
        # Transformer's layers make their attention modules inside torch (or deep-copy
        # the program's): each is guarded, wherever it sits.
        _guard_attention(result, limit)
        if self.rec.active:
            self.rec.adopt_parameters(result, node, label)
        elif target is not deepcopy:  # made in a hook or a transform: counted all the same
            for _, param in module_parameters(result):
                self.rec.untracked(param)
    return self.after_call(result, args, kwargs, node, label)


def _check_torch_call(
    self: Interpreter,
    fname: str,
    target: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> bool:
    """A torch (or math, operator, numpy) function's checks before it runs, by its name:
    True if what it returns is uninitialised memory, to be zeroed."""
    if len(args) > 1 or (args and type(args[0]) in (list, tuple)):
        sizes.check_tensor_count(args, kwargs)
    sizes.check_call(fname, target, args, kwargs, self.limits.tensor_elements)
    if kwargs:
        _refuse_meta((), kwargs, False)
    fresh = False
    if fname in _SPECIAL_FUNCTIONS:
        fresh = fname in sizes.UNINITIALISED
        if fname == "embedding" and (kwargs.get("sparse") or (len(args) > 6 and args[6])):
            raise ForbiddenError(_SPARSE)
        if fname in ("gradcheck", "gradgradcheck"):
            _check_gradcheck(fname, args, kwargs)
        if fname == "set_printoptions":
            _check_printoptions(target, args, kwargs, self.limits.string_chars)
        if fname == "kl_divergence":
            distributions.check_kl(args, kwargs, self.limits.tensor_elements)
    if fname.endswith("_"):
        for arg in args[:1]:
            if isinstance(arg, Tensor):
                self.rec.before_inplace(arg)
    return fresh


def _read_once(value: Any) -> Any:
    """An iterator (a generator, `model.parameters()`) as the tuple torch reads it into."""
    if isinstance(value, Iterator):
        return tuple(bounded_iterable(value))
    return value


def after_call(
    self: Interpreter,
    result: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
) -> Any:
    """Check and record what a call returned."""
    if LEGACY_VMAP_RUNNING:  # within torch's older vmap: not one of its batched tensors
        refuse_batched((result,))
    if isinstance(result, Tensor):  # most calls: checked here, without check_size's tests
        # A tensor op may be slow (a big matmul): the clock is read after each one too,
        # not only every 256 steps, so a program stops close to its time limit.
        if time.monotonic() > self.deadline:
            raise LimitError(f"the program ran longer than {self.limits.wall_time_s:g} s")
        numel = result.numel()
        if numel > self.limits.tensor_elements or numel == 0:
            self.check_size(result)  # raises if over, or empty but vast (arithmetic.py)
        rec = self.rec
        if rec.active:
            rec.result(result, node, label, _tensor_inputs(args, kwargs))
        else:
            rec.untracked(result)
        return result
    self.made.registered(result)
    if isinstance(result, (tuple, list)):
        if result and isinstance(result[0], Tensor):
            self.check_sizes(result)
            if self.rec.active:
                inputs = _tensor_inputs(args, kwargs)
                for item in result:
                    if isinstance(item, Tensor):
                        self.rec.result(item, node, label, inputs)
        else:
            self.check_size(result)
    elif type(result) is int:
        if not -self.int_bound < result < self.int_bound:
            raise LimitError(f"an integer grew past {self.limits.int_bits} bits")
    elif type(result) is str:
        self.check_size(result)
        return scrub(result)
    elif _unchecked(result):
        # A callable made by a call (a decorated function...): the program gets it checked.
        return Checked(result, None, str(getattr(result, "__name__", "function")))
    return result


def _init_class(cls: type) -> type | None:
    """The class whose __init__ `cls(...)` runs: None where it is the program's own."""
    if not is_program_class(cls):
        return cls
    for klass in cls.__mro__:
        if "__init__" in klass.__dict__:
            return None if is_program_class(klass) else klass
    return None


# What functools.lru_cache and functools.cache make of a function.
_LRU_CACHED = type(functools.lru_cache(maxsize=1)(len))

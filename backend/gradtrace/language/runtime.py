"""What the evaluator's parts share: scopes, control signals, compile contexts, the
operator tables, and the small checks used across statements, expressions and calls."""

from __future__ import annotations

import ast
import collections
import functools
import operator
import types
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin

from gradtrace.language import callables, module_sizes, progress, py_warnings, sizes
from gradtrace.language.callables import Checked, same_value
from gradtrace.language.classes import ProgramObject, user_class_member
from gradtrace.language.errors import ForbiddenError, LimitError, ProgramError
from gradtrace.language.namespaces import LEGACY_TENSOR_TYPES
from gradtrace.language.pymodules import bounded_iterable
from gradtrace.language.values import (
    Namespace,
    UserFunction,
)

Tensor = torch.Tensor


Closure = Callable[["Scope"], Any]


def _do_nothing(scope: Scope) -> None:
    return None


class Scope:
    __slots__ = ("func", "parent", "ret", "vars")

    def __init__(
        self, vars: dict[str, Any], parent: Scope | None, func: UserFunction | None = None
    ):
        self.vars = vars
        self.parent = parent
        self.ret: Any = None
        self.func = func


class _Signal:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


BREAK = _Signal("break")


CONTINUE = _Signal("continue")


RETURN = _Signal("return")


_MISSING = object()


_TEXT_CONVERSIONS = (ord("s"), ord("r"))


class WallTimeExceeded(BaseException):
    """Raised from the wall-clock alarm; a BaseException so no program handler catches it."""


_UNSWALLOWED = (ProgramError, WallTimeExceeded, MemoryError)


# Types that read a whole iterable in C: given an iterator, they read it capped.
_CONSUMING_TYPES = frozenset(
    {
        collections.OrderedDict, collections.defaultdict, collections.Counter,
        collections.deque, dict,
    }
)  # fmt: skip


class _FunctionContext:
    """What the compiler knows of the function being compiled: its global and nonlocal
    names, and the names it binds itself (its locals, read only from its own scope)."""

    __slots__ = ("globals", "locals", "nonlocals", "qualname")

    def __init__(
        self,
        qualname: str,
        globals_: set[str],
        nonlocals: set[str],
        locals_: frozenset[str] = frozenset(),
    ) -> None:
        self.qualname = qualname
        self.globals = globals_
        self.nonlocals = nonlocals
        self.locals = locals_


_MODULE_CONTEXT = _FunctionContext("", set(), set())


_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.MatMult: operator.matmul, ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod, ast.Pow: operator.pow, ast.LShift: operator.lshift,
    ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}  # fmt: skip


_INPLACE: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.iadd, ast.Sub: operator.isub, ast.Mult: operator.imul,
    ast.MatMult: operator.imatmul, ast.Div: operator.itruediv,
    ast.FloorDiv: operator.ifloordiv, ast.Mod: operator.imod, ast.Pow: operator.ipow,
    ast.LShift: operator.ilshift, ast.RShift: operator.irshift, ast.BitOr: operator.ior,
    ast.BitXor: operator.ixor, ast.BitAnd: operator.iand,
}  # fmt: skip


def _contains(a: Any, b: Any) -> bool:
    """`a in b`: C reads an iterator until it finds `a`, past every alarm
    (`-1 in itertools.count()` never ends), so an iterator is read through a cap. So is
    a range asked for anything but an int: C compares it with each number in turn
    (`0.5 in range(10**18)`), so only a range within the loop limit is searched (a numpy
    integer, or a float, is asked for as the int it equals)."""
    if isinstance(b, Iterator):
        b = bounded_iterable(b)
    elif type(b) is range and type(a) is not int and type(a) is not bool:
        if isinstance(a, np.integer):
            a = int(a)
        elif type(a) is float:  # equal to a number only if integral: exactly that number
            return a.is_integer() and int(a) in b
        else:
            check_range_search(b, a, "`in` a range")
    return a in b


def check_range_search(r: range, value: Any, what: str) -> None:
    """`value in r`, r.count(value), r.index(value) for a value not an int: C compares it
    with each number of r in turn, past every alarm."""
    limit = callables.current().limits.loop_iterations
    if len(r) > limit:
        raise LimitError(
            f"{what} with a {type(value).__name__} compares it with each of {len(r):,} "
            f"numbers, in C; the limit is {limit:,}"
        )


_CMPOPS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: same_value,
    ast.IsNot: lambda a, b: not same_value(a, b), ast.In: _contains,
    ast.NotIn: lambda a, b: not _contains(a, b),
}  # fmt: skip


_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.UAdd: operator.pos, ast.USub: operator.neg, ast.Not: operator.not_,
    ast.Invert: operator.invert,
}  # fmt: skip


_OP_NAMES = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.MatMult: "matmul", ast.Div: "div",
    ast.FloorDiv: "floor_divide", ast.Mod: "remainder", ast.Pow: "pow", ast.LShift: "lshift",
    ast.RShift: "rshift", ast.BitOr: "or", ast.BitXor: "xor", ast.BitAnd: "and",
}  # fmt: skip


_CONTEXT_MANAGERS = (
    torch.no_grad,
    torch.enable_grad,
    torch.set_grad_enabled,
    torch.inference_mode,
    torch.autograd.graph.saved_tensors_hooks,  # the program's hooks wrapped (graph_hooks.py)
    torch.autograd.forward_ad.dual_level,
    py_warnings.catch_warnings,
    progress.tqdm,
)


# Callable values a program may hold as they are: our own objects and admitted classes (a
# Module or a grad_fn Node is called through the interpreter's checks). Any other
# callable a program gets hold of is handed over as a Checked.
_SAFE_CALLABLES: tuple[type, ...] = (
    type,
    ProgramObject,  # an instance of the program's class with __call__: its own code
    type(functools.cmp_to_key(lambda a, b: 0)),  # sort keys, compared in C, calling back
    UserFunction,
    Checked,
    Namespace,
    nn.Module,
    torch.autograd.graph.Node,
    *_CONTEXT_MANAGERS,
)


# The usual raw callables, told apart without the isinstance walk (Node is an ABC).
_RAW_CALLABLES = frozenset(
    {
        types.BuiltinMethodType,
        types.MethodType,
        types.FunctionType,
        types.MethodWrapperType,
        types.WrapperDescriptorType,
        types.MethodDescriptorType,
        types.ClassMethodDescriptorType,
    }
)


def _unchecked(value: Any) -> bool:
    """Whether `value` is a real callable a program may only hold as a Checked."""
    return type(value) in _RAW_CALLABLES or (
        callable(value) and not isinstance(value, _SAFE_CALLABLES)
    )


_HINTS_FOR_ATTRIBUTES = {
    "creator": "`.creator` was renamed: use `.grad_fn`",
    "volatile": "`volatile` was removed: use `with torch.no_grad():`",
}


def locate(exc: BaseException, node: ast.AST | None) -> None:
    """Remember the innermost node an exception came from (the first one set wins)."""
    try:
        if getattr(exc, "gradtrace_node", None) is None:
            exc.gradtrace_node = node  # type: ignore[attr-defined]
    except (AttributeError, TypeError):
        pass


# Module methods that take attribute names (dotted paths): no '_' names through them.
_NAMING_METHODS = frozenset(
    {"add_module", "register_buffer", "register_parameter", "get_submodule", "get_parameter",
     "append", "extend", "insert"}
)  # fmt: skip


def _refuse_private_names(value: Any) -> None:
    """Names a Module would setattr/getattr (ParameterDict({...}), add_module(...)): the
    names a program may not write as attributes may not be given as strings either."""
    if isinstance(value, dict):  # an OrderedDict too
        items: Any = value.keys()
    elif type(value) in (list, tuple):
        items = [v[0] if type(v) in (list, tuple) and v else v for v in value]
    else:
        items = (value,)
    for item in items:
        if type(item) is str and (item.startswith("_") or "._" in item):
            raise ForbiddenError(
                f"the name {item[:40]!r} starts with '_': such names are not available in "
                "gradtrace; choose a name without the leading underscore"
            )


def _check_module_key(module: nn.Module, key: Any) -> None:
    """`pd[key]` of a ParameterDict is getattr(pd, key): only its own entries are items."""
    if type(key) is not str:
        return
    _refuse_private_names(key)
    if isinstance(module, nn.ParameterDict) and key not in module:
        if hasattr(module, key):
            raise ForbiddenError(
                f"{key!r} is not an entry of this ParameterDict (its items are its "
                "parameters, not the Module's attributes)"
            )
        raise KeyError(key)


# gradcheck builds Jacobians of inputs x outputs and runs the function twice per input
# element, all inside torch: a bound on the input elements keeps it to a second or so.
_GRADCHECK_ELEMENTS = 1_000


def _check_gradcheck(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    inputs = args[1] if len(args) > 1 else kwargs.get("inputs")
    tensors = [inputs] if isinstance(inputs, Tensor) else list(inputs or ())
    total = sum(t.numel() for t in tensors if isinstance(t, Tensor))
    if total > _GRADCHECK_ELEMENTS:
        raise LimitError(
            f"{name}() of {total:,} input elements is over the limit "
            f"({_GRADCHECK_ELEMENTS:,}): check a smaller input"
        )


# The print options torch's tensor text is built under (tensor_text.py follows them):
# the whole text is built before the string limit can refuse it, so a precision of 10**7
# made 30 elements into 300 million characters, and profile="full" printed every one
# of 4 million. Bounded where they are set; a float64 has 17 significant digits.
_PRINT_PRECISION = 50


def _check_printoptions(
    set_options: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], chars: int
) -> None:
    """torch.set_printoptions(...): what the call would set is read from torch's own
    options after a trial call (any argument form, a profile too), then put back."""
    from torch._tensor_str import PRINT_OPTS

    bounds = {"precision": _PRINT_PRECISION, "threshold": chars, "edgeitems": chars}
    bounds["linewidth"] = chars
    saved = dict(vars(PRINT_OPTS))  # torch sets instance attributes over class defaults
    try:
        set_options(*args, **kwargs)
        values = {name: getattr(PRINT_OPTS, name, None) for name in bounds}
    finally:
        vars(PRINT_OPTS).clear()
        vars(PRINT_OPTS).update(saved)
    for name, bound in bounds.items():
        value = values[name]
        # Anything else (a string, an object with __str__) is formatted into the
        # elements' format spec as text: a number it is, or nothing.
        if value is not None and (type(value) not in (int, float) or not value >= 0):
            raise TypeError(f"torch.set_printoptions: {name} must be a non-negative number")
        if value is not None and not value <= bound:
            raise LimitError(
                f"torch.set_printoptions: {name} of {value} is over the limit ({bound:,}): "
                "a tensor's text is built whole before it is printed"
            )


def _check_key(key: Any) -> None:
    """A tuple about to be hashed: bounded first (sizes.check_nesting)."""
    if isinstance(key, (tuple, frozenset)):  # a namedtuple hashes as a tuple
        sizes.check_nesting(key)


# Methods of the hashing containers that read an iterable whose items C then hashes.
_ITERABLE_METHODS = frozenset(
    {"update", "union", "intersection", "difference", "issubset", "issuperset", "subtract"}
)
_HASHING_TYPES = frozenset(
    {set, frozenset, dict, collections.OrderedDict, collections.defaultdict, collections.Counter}
)


def _hashed_items(value: Any, mapping: bool = True) -> Any:
    """An iterable whose items C is about to hash (Counter(it), od.update(it), set(it)):
    an iterator, or an object of the program that iterates, is read (capped) into a list,
    and each item is bounded first (sizes.check_nesting). Where a mapping is taken
    (dict(), Counter(), .update), an object with .keys() is read as C would read it, into
    a real dict built from checked pairs. Python's own dicts, sets, strings and ranges
    hold nothing to bound; what is not iterable is left for the callee to refuse."""
    kind = type(value)
    if kind is list or kind is tuple:
        for item in value:
            sizes.check_nesting(item)
        return value
    if isinstance(value, (dict, set, frozenset, str, range, Tensor)):
        return value
    if mapping and hasattr(value, "keys"):
        keys = list(bounded_iterable(iter(value.keys())))
        for key in keys:
            sizes.check_nesting(key)
        return {key: value[key] for key in keys}
    try:
        iterator = iter(value)
    except TypeError:
        return value
    items = list(bounded_iterable(iterator))
    for item in items:
        sizes.check_nesting(item)
    return items


def _keys(items: list[Any]) -> list[Any]:
    """Items about to be hashed (a set display, set.update): each bounded first."""
    for item in items:
        if isinstance(item, (tuple, frozenset)):
            sizes.check_nesting(item)
    return items


# Functions with a check of their own besides their size (one set test on the hot path).
_SPECIAL_FUNCTIONS = sizes.UNINITIALISED | {
    "embedding",
    "gradcheck",
    "gradgradcheck",
    "set_printoptions",
    "kl_divergence",
}


_SPARSE = (
    "sparse gradients (sparse=True) are not available in gradtrace: leave sparse out, "
    "the gradient is then an ordinary tensor"
)


def _refuse_meta(args: tuple[Any, ...], kwargs: dict[str, Any], positional: bool) -> None:
    """The meta device has shapes and no values: nothing could be shown of its tensors."""
    values = list(kwargs.values())
    if positional:
        values.extend(args)
    for value in values:
        if (type(value) is str and value.strip().startswith("meta")) or (
            type(value) is torch.device and value.type == "meta"
        ):
            raise ForbiddenError(
                "the meta device is not available in gradtrace (its tensors hold no values "
                "to show); leave out device=, or use 'cpu'"
            )


_LEGACY_TENSOR_TYPES = frozenset(getattr(torch, name) for name in LEGACY_TENSOR_TYPES)


def _check_lazy_layer(
    limit: int, module: nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """A forward pre-hook (with kwargs, put first) on each lazy layer: the weight torch's
    own pre-hook is about to make, sized before it does. torch's method is asked whether
    the layer is still lazy, not the layer's (a program's subclass may answer False)."""
    if isinstance(module, LazyModuleMixin) and LazyModuleMixin.has_uninitialized_params(module):
        module_sizes.check_lazy_module(module, args, _element_limit(limit), kwargs)


def _element_limit(default: int) -> int:
    """The per-tensor limit of the running job now (divided by vmap's batch inside a
    vmap, where a module called per example runs over the whole batch at once)."""
    try:
        return callables.current().limits.tensor_elements
    except RuntimeError:
        return default


# The modules that compute attention inline: MultiheadAttention, and an encoder layer's
# fast path (eval, no grad), which never calls its self_attn module.
_ATTENTION = (nn.MultiheadAttention, nn.TransformerEncoderLayer)


def _torch_reads(obj: Any, names: tuple[str, ...]) -> None:
    """The attributes torch reads again after a check has read them must answer the same:
    not members of a program's class (a property can answer each read differently)."""
    for name in names:
        if user_class_member(type(obj), name):
            raise ForbiddenError(
                f"`{name}` is torch's own in {type(obj).__name__}: name yours otherwise"
            )


def _check_attention(
    limit: int, module: nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """Before a MultiheadAttention or an encoder layer runs (its last forward pre-hook, or
    a direct .forward): the attention it is about to compute, sized first."""
    if isinstance(module, nn.TransformerEncoderLayer):
        _torch_reads(module, ("self_attn",))
        attention: Any = module.self_attn
        query = key = args[0] if args else kwargs.get("src")
    else:
        attention = module
        query = args[0] if args else kwargs.get("query")
        key = args[1] if len(args) > 1 else kwargs.get("key")
    _torch_reads(attention, ("num_heads",))
    try:  # an int or a numpy integer, as torch reads it in its reshapes
        heads = operator.index(getattr(attention, "num_heads", 1))
    except TypeError:
        heads = 1  # torch refuses it itself
    module_sizes.check_attention(query, key, heads, _element_limit(limit))


def _guard_attention(module: nn.Module, limit: int) -> None:
    """Make `_check_attention` the last forward pre-hook of each attention module in
    `module` (walked through torch's own tables, running none of the program's code):
    at construction, and again after the program registers a pre-hook of its own, whose
    new arguments would otherwise reach forward unchecked."""
    stack = [module]
    seen: set[int] = set()
    while stack and len(seen) < 10_000:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        if isinstance(m, _ATTENTION):
            hooks = list(m.__dict__.get("_forward_pre_hooks", {}).values())
            last = hooks[-1] if hooks else None
            if not (isinstance(last, functools.partial) and last.func is _check_attention):
                m.register_forward_pre_hook(
                    functools.partial(_check_attention, limit), with_kwargs=True
                )
        children = m.__dict__.get("_modules")
        if type(children) is dict:
            stack.extend(c for c in children.values() if isinstance(c, nn.Module))


def _zero_fill(t: Tensor) -> None:
    """Deliberately unlike torch: torch.empty and its family give uninitialised memory,
    which in a long-lived worker may hold an earlier job's data; here it is zeros."""
    with torch.no_grad():
        t.zero_()


def _place(exc: BaseException, node: ast.AST) -> None:
    """An error found while compiling: the innermost node it belongs to."""
    if isinstance(exc, ProgramError):
        if exc.node is None:
            exc.node = node
    else:
        locate(exc, node)


def _tensor_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Tensor, ...]:
    found: list[Tensor] = []
    for a in args:
        if isinstance(a, Tensor):
            found.append(a)
        elif type(a) is list or type(a) is tuple:
            found.extend(x for x in a if isinstance(x, Tensor))
    if kwargs:
        for v in kwargs.values():
            if isinstance(v, Tensor):
                found.append(v)
    return tuple(found)


def _store(name: str) -> ast.Name:
    return ast.Name(id=name, ctx=ast.Store())


def _owner_of(func: UserFunction) -> type | None:
    from gradtrace.language.classes import owner_class

    return owner_class(func)

"""The one call path: every call, written or made from inside Python or torch through a
Checked, is checked here on its callee (sizes, refusals, the recorder's specials).

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import collections
import functools
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin

from gradtrace.identity import identity
from gradtrace.language import sizes
from gradtrace.language.attributes import attribute_allowed, width_method
from gradtrace.language.builtins import check_format_spec
from gradtrace.language.callables import Checked, Unbound
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.module_tables import module_parameters
from gradtrace.language.namespaces import TORCH_CALLABLES
from gradtrace.language.pymodules import ITERATING, bounded_args, check_rows
from gradtrace.language.runtime import (
    _ATTENTION,
    _CONSUMING_TYPES,
    _HASHING_TYPES,
    _ITERABLE_METHODS,
    _LEGACY_TENSOR_TYPES,
    _MISSING,
    _NAMING_METHODS,
    _SPARSE,
    _SPECIAL_FUNCTIONS,
    Closure,
    Scope,
    Tensor,
    _check_against,
    _check_attention,
    _check_gradcheck,
    _check_lazy_layer,
    _FunctionContext,
    _guard_attention,
    _hashed_items,
    _keys,
    _owner_of,
    _refuse_meta,
    _refuse_private_names,
    _tensor_inputs,
    _unchecked,
    _zero_fill,
    locate,
)
from gradtrace.language.tensor_text import clean_text, scrub, value_str
from gradtrace.language.values import (
    ModuleTable,
    Namespace,
    SuperProxy,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter

# What a numpy scalar type may be called with: one number (or its text).
_SCALARS = (bool, int, float, complex, str, np.generic)
# The hashing containers whose methods take a key (Counter, OrderedDict, defaultdict).
_KEYED = frozenset({collections.Counter, collections.OrderedDict, collections.defaultdict})
# Python's containers as classes (type([]), {}.__class__): called as their builtins.
_CONTAINERS = frozenset({list, tuple, dict, set, frozenset})


def expr_Call(self: Interpreter, node: ast.Call, fc: _FunctionContext) -> Closure:
    args_fn = self.compile_arguments(node, fc)
    label = self.segment(node)
    interp = self
    func = node.func

    if isinstance(func, ast.Name) and func.id == "super":
        return self.compile_super(node, fc, args_fn)

    if isinstance(func, ast.Attribute):
        obj_expr = self.compile_expr(func.value, fc)
        attr = func.attr

        # The fast path of `obj.name(...)`: no Checked is made, but the very checks a
        # Checked's call runs are run (call_tensor_method, call_method, invoke).
        def method_call(scope: Scope) -> Any:
            obj = obj_expr(scope)
            args, kwargs = args_fn(scope)
            interp.here = node
            try:
                if isinstance(obj, Tensor):
                    return interp.call_tensor_method(obj, attr, args, kwargs, node, label)
                kind = type(obj)
                if kind is Namespace:
                    member = obj.members.get(attr, _MISSING)
                    if member is _MISSING:
                        raise interp.missing_member(obj, attr, func)
                    return interp.invoke(member, args, kwargs, node, label, attr)
                if kind is SuperProxy or isinstance(obj, type):
                    target = interp.get_attr(obj, attr, func)
                    return interp.invoke(target, args, kwargs, node, label, attr)
                value = interp.read_attr(obj, attr, func)
                if _unchecked(value):
                    return interp.call_method(obj, attr, value, args, kwargs, node, label)
                return interp.invoke(value, args, kwargs, node, label, attr)
            except BaseException as exc:
                locate(exc, node)
                raise

        return method_call

    callee = self.compile_expr(func, fc)
    name = func.id if isinstance(func, ast.Name) else ""

    def call(scope: Scope) -> Any:
        target = callee(scope)
        args, kwargs = args_fn(scope)
        interp.here = node
        try:
            return interp.invoke(target, args, kwargs, node, label, name)
        except BaseException as exc:
            locate(exc, node)
            raise

    return call


def compile_arguments(
    self: Interpreter, node: ast.Call, fc: _FunctionContext
) -> Callable[[Scope], tuple[tuple[Any, ...], dict[str, Any]]]:
    simple_args = not any(isinstance(a, ast.Starred) for a in node.args)
    positional = [
        (
            isinstance(a, ast.Starred),
            self.compile_expr(a.value if isinstance(a, ast.Starred) else a, fc),
        )
        for a in node.args
    ]
    keywords = [(k.arg, self.compile_expr(k.value, fc)) for k in node.keywords]
    interp = self
    if simple_args and all(k is not None for k, _ in keywords):
        plain = [c for _, c in positional]
        if not keywords:
            empty: dict[str, Any] = {}
            return lambda scope: (tuple([c(scope) for c in plain]), empty)
        return lambda scope: (
            tuple([c(scope) for c in plain]),
            {k: c(scope) for k, c in keywords},  # type: ignore[misc]
        )

    def arguments(scope: Scope) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args: list[Any] = []
        for starred, c in positional:
            if starred:
                args.extend(interp.iterate(c(scope), node))
            else:
                args.append(c(scope))
        kwargs: dict[str, Any] = {}
        for k, c in keywords:
            if k is None:
                extra = c(scope)
                if not isinstance(extra, dict):
                    raise TypeError("argument after ** must be a mapping")
                for key in extra:
                    if not isinstance(key, str) or key.startswith("_"):
                        raise ForbiddenError(
                            "keyword names starting with '_' are not allowed", node
                        )
                kwargs.update(extra)
            else:
                kwargs[k] = c(scope)
        interp.check_size(args)
        return tuple(args), kwargs

    return arguments


def compile_super(
    self: Interpreter, node: ast.Call, fc: _FunctionContext, args_fn: Callable[[Scope], Any]
) -> Closure:
    def super_(scope: Scope) -> SuperProxy:
        args, _ = args_fn(scope)
        if len(args) == 2:
            cls, obj = args
            if not isinstance(cls, type):
                raise TypeError("super() argument 1 must be a type")
            return SuperProxy(cls, obj)
        if args:
            raise TypeError("super() takes 0 or 2 arguments here")
        # The innermost enclosing function that is a method of a class of the program.
        func: UserFunction | None = None
        owner: type | None = None
        s: Scope | None = scope
        while owner is None and s is not None:
            func = s.func
            s = s.parent
            if func is not None:
                owner = _owner_of(func)
        if func is None or owner is None or not func.params.names:
            raise RuntimeError("super(): no arguments (use it inside a method)")
        first = func.params.names[0]
        holder: Scope | None = scope
        while holder is not None and first not in holder.vars:
            holder = holder.parent
        if holder is None:
            raise RuntimeError("super(): no arguments")
        return SuperProxy(owner, holder.vars[first])

    return super_


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
    if id(target) in ITERATING:  # itertools.chain(t), functools.reduce(f, t): rows bounded
        for arg in args:
            check_rows(arg)
    special = self.rec.special_call(target)
    if special is not None:
        return special(args, kwargs, node)
    limit = self.limits.tensor_elements
    fresh = False
    if kind is type or isinstance(target, type):
        if target in _CONTAINERS:
            # type(x) and x.__class__ answer with Python's own list, set, dict...: called,
            # each is the builtin of that name, which bounds what C reads and hashes.
            target = self.builtin_table[target.__name__]
        elif issubclass(target, nn.Module):
            sizes.check_module_class(target, args, kwargs, limit, self.limits.total_elements)
            _refuse_meta(args, kwargs, True)
            if issubclass(target, (nn.ParameterDict, nn.ModuleDict)):
                for arg in (*args, *kwargs.values()):
                    _refuse_private_names(arg)
        elif issubclass(target, torch.optim.Optimizer) and kwargs.get("foreach"):
            kwargs = {**kwargs, "foreach": False}
        elif target is torch.autograd.Function:
            raise TypeError("torch.autograd.Function is used by subclassing it")
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
            # torch.LongTensor([n, n]) is data, as torch.tensor takes it.
            data = (
                bool(args)
                and isinstance(args[0], (list, tuple, Tensor))
                and type(args[0]) is not torch.Size
            )
            if data:
                sizes.check_call("tensor", torch.tensor, args[:1], {}, limit)
            else:
                sizes.check_call("empty", torch.empty, args, kwargs, limit)
            fresh = not data
    elif identity(target) in TORCH_CALLABLES:
        fname = getattr(target, "__name__", name)
        sizes.check_call(fname, target, args, kwargs, limit)
        if kwargs:
            _refuse_meta((), kwargs, False)
        if fname in _SPECIAL_FUNCTIONS:
            fresh = fname in sizes.UNINITIALISED
            if fname == "embedding" and (kwargs.get("sparse") or (len(args) > 6 and args[6])):
                raise ForbiddenError(_SPARSE)
            if fname in ("gradcheck", "gradgradcheck"):
                _check_gradcheck(fname, args, kwargs)
        if fname.endswith("_"):
            for arg in args[:1]:
                if isinstance(arg, Tensor):
                    self.rec.before_inplace(arg)
    if isinstance(target, nn.Module):
        return self.call_module(target, args, kwargs, node, label, name)
    result = target(*args, **kwargs)
    if fresh and isinstance(result, Tensor):
        _zero_fill(result)
    if isinstance(result, nn.Module) and isinstance(target, type):
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
    return self.after_call(result, args, kwargs, node, label)


def after_call(
    self: Interpreter,
    result: Any,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    node: ast.AST | None,
    label: str | None,
) -> Any:
    """Check and record what a call returned."""
    if isinstance(result, Tensor):
        # A tensor op may be slow (a big matmul): the clock is read after each one too,
        # not only every 256 steps, so a program stops close to its time limit.
        if time.monotonic() > self.deadline:
            raise LimitError(f"the program ran longer than {self.limits.wall_time_s:g} s")
        self.check_size(result)
        if self.rec.active:
            self.rec.result(result, node, label, _tensor_inputs(args, kwargs))
        else:
            self.rec.untracked(result)
    elif isinstance(result, (tuple, list)):
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
    kind = type(owner)
    limits = self.limits
    if kind is ModuleTable:  # self._modules.get(key): torch's dict hashes the key
        for arg in args:
            sizes.check_nesting(arg)
    if kind in _CONSUMING_TYPES or kind is str or kind is list or kind is set or kind is frozenset:
        args = bounded_args(args)  # "".join / list.extend / deque.extend of an iterator
        if kind in _KEYED:
            for arg in args:  # c.get(key), od.pop(key): a key hashed in C (sets: below)
                if isinstance(arg, (tuple, frozenset)):
                    sizes.check_nesting(arg)
        if kind in _HASHING_TYPES and name in _ITERABLE_METHODS:
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
            parts = args[0] if isinstance(args[0], (list, tuple)) else ()
            total = sum(len(p) for p in parts if type(p) is str) + len(owner) * len(parts)
            if total > limits.string_chars:
                raise LimitError(f"joining {total:,} characters is over the string limit")
    elif kind is list or kind is set or kind is dict or kind is frozenset or kind is tuple:
        if name in ("count", "index", "remove") and args and isinstance(args[0], Tensor):
            _check_against(args[0], owner, limits.tensor_elements)
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
    return self.after_call(result, args, kwargs, node, label)


def check_base_init(
    self: Interpreter, owner: nn.Module, method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """`super().__init__(...)` of a torch Module class allocates its parameters."""
    func = getattr(method, "__func__", None)
    for klass in type(owner).__mro__:
        if klass.__dict__.get("__init__") is func:
            if "gradtrace_members" not in klass.__dict__ and klass is not nn.Module:
                sizes.check_module_class(
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
        return special(obj, args, kwargs, node)
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
    return result


def format_string(
    self: Interpreter, template: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> str:
    """`str.format` with plain fields only: `{}`, `{0}`, `{name}`, with a spec."""
    import string

    out: list[str] = []
    auto = 0
    for literal, field, spec, conversion in string.Formatter().parse(template):
        out.append(literal)
        if field is None:
            continue
        if field == "":
            if auto >= len(args):
                raise IndexError(f"Replacement index {auto} out of range for positional args tuple")
            value = args[auto]
            auto += 1
        elif field.isdigit():
            index = int(field)
            if index >= len(args):
                raise IndexError(
                    f"Replacement index {index} out of range for positional args tuple"
                )
            value = args[index]
        elif field.isidentifier() and not field.startswith("_"):
            if field not in kwargs:
                raise KeyError(field)
            value = kwargs[field]
        else:
            raise ForbiddenError(
                f"format fields may only be plain names or numbers, not {{{field}}}"
            )
        spec = spec or ""
        check_format_spec(spec, self.limits.string_chars)
        self.check_printable(value)
        if conversion == "r":
            value = repr(value)
        elif conversion == "s":
            value = str(value)
        elif conversion == "a":
            value = ascii(value)
        out.append(format(value, spec))
    text = scrub("".join(out))
    self.check_size(text)
    return text


def builtin_print(
    self: Interpreter, *args: Any, sep: str | None = " ", end: str | None = "\n", **kwargs: Any
) -> None:
    if kwargs.keys() - {"flush"}:
        bad = next(iter(kwargs.keys() - {"flush"}))
        raise ForbiddenError(f"print({bad}=...) is not supported: output goes to the page")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    if not isinstance(sep, str) or not isinstance(end, str):
        raise TypeError("sep and end must be None or strings")
    for arg in args:
        self.check_printable(arg)
    text = clean_text(scrub(sep.join(value_str(a) for a in args) + end))
    self.rec.print(text, args)

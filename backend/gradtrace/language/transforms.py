"""`torch.func` and `torch.autograd.functional`: transforms that call the program's functions.

torch runs the program's function inside the transform, with its own kinds of tensors
(vmap's BatchedTensor, grad's GradTrackingTensor, dual tensors). Each call of it goes
through the interpreter's one call path (`_guard`), with recording paused: the trace
shows what a transform returns as one node fed by its inputs, not the ops it ran inside
(their tensors are of levels that end with the transform).

Sizes. Inside `vmap` every op runs over the whole batch at once, so while a program
function runs there the per-tensor limit is divided by the batch it runs over (the
product of the batches of the vmaps around it) and the tensors it makes count that many
times toward the total. The Jacobians torch builds after the function returned (jacrev's
vmap over the output's rows, autograd.functional's loop of backward passes) are checked
before they are built: rows x inputs within the per-tensor limit, rows x the elements the
function made within the total.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
import torch.autograd.functional as AF
import torch.func as TF
from torch import nn
from torch._functorch.vmap import _process_batched_inputs
from torch.nn.utils.stateless import _reparametrize_module
from torch.utils._pytree import tree_leaves

from gradtrace.identity import identity
from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.values import UserFunction

Tensor = torch.Tensor
_functorch = torch._C._functorch

# The batches of the transforms running now (vmap's, jacfwd's), innermost last, and the
# job's own limits while any runs (one job at a time per process).
_batches: list[int] = []
_outer: list[Limits] = []


def _name(fn: Any) -> str:
    if type(fn) is UserFunction:
        return fn.name
    if type(fn) is Checked:
        return fn.name
    return type(fn).__name__


def _numel(tree: Any) -> int:
    return sum(t.numel() for t in tree_leaves(tree) if isinstance(t, Tensor))


def _physical_ratio(tree: Any) -> int:
    """How many times bigger than they look the functorch tensors in `tree` are."""
    ratio = 1
    for t in tree_leaves(tree):
        if isinstance(t, Tensor) and _functorch.is_functorch_wrapped_tensor(t) and t.numel():
            inner = t
            while _functorch.is_functorch_wrapped_tensor(inner):
                inner = _functorch.get_unwrapped(inner)
            ratio = max(ratio, inner.numel() // t.numel())
    return ratio


def _scale() -> int:
    scale = 1
    for b in _batches:
        scale *= max(b, 1)
    return scale


@contextmanager
def _batched(size: int) -> Iterator[None]:
    _batches.append(size)
    try:
        yield
    finally:
        _batches.pop()


@contextmanager
def _scaled(scale: int) -> Iterator[None]:
    """Recording paused and the limits divided by `scale`, while program code runs."""
    interp = callables.current()
    rec = interp.rec
    base = _outer[0] if _outer else interp.limits
    saved = (interp.limits, rec.scale)
    _outer.append(base)
    interp.limits = base.model_copy(
        update={"tensor_elements": max(base.tensor_elements // scale, 1)}
    )
    rec.scale = scale
    try:
        with rec.suspended():
            yield
    finally:
        interp.limits, rec.scale = saved
        _outer.pop()


_torch_grad = torch.autograd.grad
_torch_backward = torch.autograd.backward
_watching: list[bool] = []


def _flag(args: tuple[Any, ...], kwargs: dict[str, Any], name: str, at: int) -> bool | None:
    value = kwargs.get(name, args[at] if len(args) > at else None)
    return value if type(value) is bool else None


def _hidden_pass(kind: str, args: tuple[Any, ...], kwargs: dict[str, Any], at: int) -> None:
    create = bool(_flag(args, kwargs, "create_graph", at + 1))
    retain = _flag(args, kwargs, "retain_graph", at)
    interp = callables.current()
    interp.rec.hidden_pass(kind, interp.here, create if retain is None else retain, create)


def _seen(kind: str, torch_fn: Callable[..., Any], at: int) -> Callable[..., Any]:
    def seen(*args: Any, **kwargs: Any) -> Any:
        # Under a torch-function mode (a job's `with torch.device("cuda")`) torch's grad
        # dispatches to `torch.autograd.grad` again with the same roots, which is this:
        # one pass, counted once.
        roots = args[0] if args else kwargs.get("outputs", kwargs.get("tensors"))
        if _counting and _counting[-1] is roots:
            return torch_fn(*args, **kwargs)
        _hidden_pass(kind, args, kwargs, at)
        _counting.append(roots)
        try:
            return torch_fn(*args, **kwargs)
        finally:
            _counting.pop()

    return seen


_counting: list[Any] = []
_grad_seen = _seen("grad", _torch_grad, 3)
_backward_seen = _seen("backward", _torch_backward, 2)


#: Whether a transform has run in this job: only then can a tensor be one of torch.func's
#: wrappers (every transform runs within _watched).
ran = False


@contextmanager
def _watched() -> Iterator[None]:
    """While a transform runs, each backward pass torch runs for it (through
    torch.autograd.grad or backward, as its own code calls them) is recorded as a pass."""
    global ran
    ran = True
    if not _watching:
        torch.autograd.grad = _grad_seen
        torch.autograd.backward = _backward_seen
    _watching.append(True)
    try:
        yield
    finally:
        _watching.pop()
        if not _watching:
            torch.autograd.grad = _torch_grad
            torch.autograd.backward = _torch_backward


def _entry(fn: Callable[..., Any], transform: str, func: Any) -> Callable[..., Any]:
    """A transformed function as the program calls it: its passes watched."""

    def call(*args: Any, **kwargs: Any) -> Any:
        with _watched():
            return fn(*args, **kwargs)

    call.__name__ = call.__qualname__ = f"{transform}({_name(func)})"
    return call


def _watch(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        with _watched():
            return fn(*args, **kwargs)

    return call


def _check_rows(rows: int, columns: int, made: int, what: str) -> None:
    """A Jacobian of `rows` x `columns` built by `rows` passes over `made` elements (each
    pass fed by one row of a `rows` x `rows` basis), in the vmaps running now."""
    base = _outer[0] if _outer else callables.current().limits
    size = rows * max(rows, columns) * _scale()
    if size > base.tensor_elements:
        raise LimitError(
            f"{what} would make {size:,} elements at once, over the limit "
            f"({base.tensor_elements:,} per tensor): take it of fewer outputs or inputs"
        )
    if rows * made > base.total_elements:
        raise LimitError(
            f"{what} would go over {rows * made:,} elements in its backward passes, more "
            f"than {base.total_elements:,} in all: take it of fewer outputs, or of a "
            "function that makes less"
        )


class _Guard:
    """The program's function `fn` as torch calls it inside a transform."""

    def __init__(self, fn: Any, rows: Callable[[Any], int] | None = None, what: str = "") -> None:
        self.fn = fn
        self.rows = rows  # the rows of a Jacobian torch will build from the result
        self.what = what
        self.made = 0  # elements made by the last call
        self.columns = 0  # the elements a Jacobian is taken of, set by the caller
        self.__name__ = _name(fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        interp = callables.current()
        scale = max(_scale(), _physical_ratio((args, kwargs)))
        before, here, columns = interp.rec.made, interp.here, self.columns
        try:
            with _scaled(scale):
                result = interp.invoke(self.fn, args, kwargs, here, None, "")
                interp.check_sizes(tree_leaves(result))
        finally:
            # The passes torch runs next belong to the call that started the transform.
            interp.here = here
        self.made = interp.rec.made - before
        if self.rows is not None:
            _check_rows(self.rows(result), columns, self.made, self.what)
        return result


def _argnums_numel(args: tuple[Any, ...], argnums: Any) -> int:
    picked = argnums if isinstance(argnums, tuple) else (argnums,)
    total = 0
    for i in picked:
        if type(i) is int and -len(args) <= i < len(args):
            total += _numel(args[i])
    return total


# ---------------------------------------------------------------------------- torch.func


def grad(func: Any, argnums: Any = 0, has_aux: bool = False) -> Any:
    inner = TF.grad(_Guard(func), argnums, has_aux)
    return _entry(inner, "grad", func)


def grad_and_value(func: Any, argnums: Any = 0, has_aux: bool = False) -> Any:
    inner = TF.grad_and_value(_Guard(func), argnums, has_aux)
    return _entry(inner, "grad_and_value", func)


def vmap(
    func: Any,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Any:
    guard = _Guard(func)
    inner = TF.vmap(guard, in_dims, out_dims, randomness, chunk_size=chunk_size)

    def batched(*args: Any, **kwargs: Any) -> Any:
        size = _process_batched_inputs(in_dims, args, guard)[0]
        with _batched(size):
            return inner(*args, **kwargs)

    return _entry(batched, "vmap", func)


@_watch
def vjp(func: Any, *primals: Any, has_aux: bool = False) -> Any:
    guard = _Guard(func)
    result = TF.vjp(guard, *primals, has_aux=has_aux)
    made, size = guard.made, _numel(primals)
    pullback = result[1]

    def vjp_fn(*cotangents: Any, **kwargs: Any) -> Any:
        # One backward pass over what the function made, as many times as vmaps batch it.
        _check_rows(1, size, made * _scale(), "vjp_fn")
        with _watched():
            return pullback(*cotangents, **kwargs)

    return (result[0], Checked(vjp_fn, None, "vjp_fn"), *result[2:])


@_watch
def jvp(
    func: Any, primals: Any, tangents: Any, *, strict: bool = False, has_aux: bool = False
) -> Any:
    return TF.jvp(_Guard(func), primals, tangents, strict=strict, has_aux=has_aux)


def jacrev(func: Any, argnums: Any = 0, *, has_aux: bool = False, chunk_size: Any = None) -> Any:
    def rows(out: Any) -> int:
        return _numel(out[0] if has_aux else out)

    guard = _Guard(func, rows, "jacrev")
    inner = TF.jacrev(guard, argnums, has_aux=has_aux, chunk_size=chunk_size)

    def jacobian(*args: Any, **kwargs: Any) -> Any:
        guard.columns = _argnums_numel(args, argnums)
        return inner(*args, **kwargs)

    return _entry(jacobian, "jacrev", func)


def jacfwd(func: Any, argnums: Any = 0, has_aux: bool = False, *, randomness: str = "error") -> Any:
    inner = TF.jacfwd(_Guard(func), argnums, has_aux, randomness=randomness)

    def jacobian(*args: Any, **kwargs: Any) -> Any:
        # torch runs the function once, vmapped over a basis of the inputs.
        size = _argnums_numel(args, argnums)
        _check_rows(size, size, 0, "jacfwd")
        with _batched(size):
            return inner(*args, **kwargs)

    return _entry(jacobian, "jacfwd", func)


def hessian(func: Any, argnums: Any = 0) -> Any:
    # torch's hessian is jacfwd(jacrev(func)): the function runs vmapped over the inputs,
    # and each of those runs takes a Jacobian of its output.
    guard = _Guard(func, _numel, "hessian")
    inner = TF.hessian(guard, argnums)

    def second(*args: Any, **kwargs: Any) -> Any:
        size = _argnums_numel(args, argnums)
        _check_rows(size, size, 0, "hessian")
        guard.columns = size
        with _batched(size):
            return inner(*args, **kwargs)

    return _entry(second, "hessian", func)


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: Any = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """The module called with these tensors in place of its parameters and buffers: the
    call goes through the interpreter's (a Module's checks, and its recording)."""
    if not isinstance(module, nn.Module):
        raise TypeError("functional_call() expects an nn.Module first")
    dicts = parameter_and_buffer_dicts
    tables = list(dicts) if isinstance(dicts, (list, tuple)) else [dicts]
    merged: dict[str, Tensor] = {}
    for table in tables:
        if not isinstance(table, dict):
            raise ValueError("functional_call() expects a dict of tensors, or a list of them")
        for key, value in table.items():
            if type(key) is not str or any(part.startswith("_") for part in key.split(".")):
                raise ForbiddenError(
                    f"functional_call(): {key!r} is not a name a program may set: name "
                    "parameters and buffers as named_parameters() does"
                )
            if not isinstance(value, Tensor):
                raise TypeError(f"functional_call(): {key!r} must map to a tensor")
            if key in merged:
                raise ValueError(
                    f"['{key}'] appeared in multiple dictionaries; behavior of functional "
                    "call is ambiguous"
                )
            merged[key] = value
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    if kwargs is None:
        kwargs = {}
    if not isinstance(kwargs, dict) or any(type(k) is not str or k.startswith("_") for k in kwargs):
        raise ForbiddenError("functional_call(kwargs=...) takes a dict of plain names")
    interp = callables.current()
    with _reparametrize_module(module, merged, tie_weights=bool(tie_weights), strict=bool(strict)):
        return interp.invoke(module, args, kwargs, interp.here, None, "")


# ------------------------------------------------------------- torch.autograd.functional


@_watch
def af_jacobian(
    func: Any,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    size = _numel(inputs)
    if strategy == "forward-mode":
        _check_rows(size, size, 0, "jacobian")
        with _batched(size):
            return AF.jacobian(_Guard(func), inputs, create_graph, strict, vectorize, strategy)
    guard = _Guard(func, _numel, "jacobian")
    guard.columns = size
    return AF.jacobian(guard, inputs, create_graph, strict, vectorize, strategy)


@_watch
def af_hessian(
    func: Any,
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    size = _numel(inputs)
    # The outer Jacobian's rows are the gradient's elements, one per input element.
    guard = _Guard(func, lambda out: size, "hessian")
    guard.columns = size
    _check_rows(size, size, 0, "hessian")
    if outer_jacobian_strategy == "forward-mode":
        with _batched(size):
            return AF.hessian(guard, inputs, create_graph, strict, vectorize, "forward-mode")
    return AF.hessian(guard, inputs, create_graph, strict, vectorize, outer_jacobian_strategy)


def _one_pass(torch_fn: Callable[..., Any]) -> Callable[..., Any]:
    """vjp, jvp, hvp, vhp: one or two backward passes over what the function made."""

    @functools.wraps(torch_fn)
    def call(
        func: Any, inputs: Any, v: Any = None, create_graph: bool = False, strict: bool = False
    ) -> Any:
        with _watched():
            return torch_fn(_Guard(func), inputs, v, create_graph, strict)

    return call


TORCH_FUNC: dict[str, Any] = {
    "grad": grad,
    "grad_and_value": grad_and_value,
    "vmap": vmap,
    "vjp": vjp,
    "jvp": jvp,
    "jacrev": jacrev,
    "jacfwd": jacfwd,
    "hessian": hessian,
    "functional_call": functional_call,
}

AUTOGRAD_FUNCTIONAL: dict[str, Any] = {
    "jacobian": af_jacobian,
    "hessian": af_hessian,
    "vjp": _one_pass(AF.vjp),
    "jvp": _one_pass(AF.jvp),
    "hvp": _one_pass(AF.hvp),
    "vhp": _one_pass(AF.vhp),
}

for _table in (TORCH_FUNC, AUTOGRAD_FUNCTIONAL):
    for _key, _fn in _table.items():
        _fn.__name__ = _fn.__qualname__ = _key
        _fn.__module__ = "torch.func" if _table is TORCH_FUNC else "torch.autograd.functional"

#: Functions that run program code: never dry-run on the meta device by the size checks.
TRANSFORMS: frozenset[int] = frozenset(
    identity(fn) for table in (TORCH_FUNC, AUTOGRAD_FUNCTIONAL) for fn in table.values()
)


def reset() -> None:
    global ran
    ran = False
    _batches.clear()
    _outer.clear()
    _watching.clear()
    _counting.clear()
    torch.autograd.grad = _torch_grad
    torch.autograd.backward = _torch_backward

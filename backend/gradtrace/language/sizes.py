"""Limits before allocation: refuse an op whose result would be too large, before torch runs it.

Most ops cannot make more elements than their largest input, and every tensor a program
holds is already within the limit. For the ops that can grow (creation, broadcasting,
matmul, repeat, cat, ...), a cheap bound is tried first: the product of the input sizes
and the numbers passed. Only when that bound is over the limit is the op run on torch's
`meta` device, which computes the output shape and allocates nothing.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from gradtrace.language.errors import LimitError
from gradtrace.language.limits import Limits

GROWERS = frozenset(
    [
        "zeros",
        "ones",
        "full",
        "empty",
        "rand",
        "randn",
        "randint",
        "normal",
        "arange",
        "linspace",
        "logspace",
        "eye",
        "randperm",
        "multinomial",
        "mm",
        "matmul",
        "bmm",
        "outer",
        "ger",
        "kron",
        "einsum",
        "tensordot",
        "cdist",
        "addmm",
        "addbmm",
        "baddbmm",
        "addmv",
        "cartesian_prod",
        "block_diag",
        "meshgrid",
        "broadcast_to",
        "broadcast_tensors",
        "expand",
        "expand_as",
        "repeat",
        "tile",
        "repeat_interleave",
        "cat",
        "concat",
        "concatenate",
        "stack",
        "hstack",
        "vstack",
        "dstack",
        "column_stack",
        "row_stack",
        "diag",
        "diag_embed",
        "diagflat",
        "pad",
        "one_hot",
        "new_zeros",
        "new_ones",
        "new_full",
        "new_empty",
        "unfold",
        "interpolate",
        "bilinear",
        "conv1d",
        "conv2d",
        "conv_transpose2d",
        "embedding",
        "scatter_reduce",
        "index_put",
    ]
)

#: Ops whose result is uninitialised memory in torch; the interpreter zero-fills it.
UNINITIALISED = frozenset(
    {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided", "new"}
)

# Ops whose output grows with the square of their input.
_SQUARING = frozenset({"eye", "diag", "diag_embed", "diagflat"})


def numbers_product(values: Any, depth: int = 0) -> tuple[float, int, int]:
    """(product of |numbers| >= 1, product of tensor sizes, sum of tensor sizes)."""
    prod_numbers = 1.0
    prod_tensors = 1
    sum_tensors = 0
    for v in values:
        t = type(v)
        if t is int or t is float or isinstance(v, (np.integer, np.floating)):
            # numpy's numbers are sizes to torch too: torch.zeros(np.int64(10**5), ...).
            a = abs(float(v))
            if a > 1:
                prod_numbers *= a
        elif isinstance(v, torch.Tensor):
            n = v.numel()
            prod_tensors *= max(n, 1)
            sum_tensors += n
            if n == 1 and _integral(v):
                # A size given as a one-element tensor, of any dim (torch takes
                # torch.tensor([10**9]) as it takes torch.tensor(10**9)).
                a = abs(int(v.item()))
                if a > 1:
                    prod_numbers *= a
        elif (t is list or t is tuple or t is torch.Size) and depth < 2:
            pn, pt, st = numbers_product(v, depth + 1)
            prod_numbers *= pn
            prod_tensors *= pt
            sum_tensors += st
    return prod_numbers, prod_tensors, sum_tensors


def _integral(t: torch.Tensor) -> bool:
    """An integer tensor whose value can be read (not vmap's: one value per example)."""
    return (
        not (t.is_floating_point() or t.is_complex() or t.dtype == torch.bool)
        and t.device.type != "meta"
        and not in_vmap(t)
    )


def in_vmap(t: torch.Tensor) -> bool:
    """Whether `t` is one of vmap's tensors (however wrapped): it has no single value."""
    functorch = torch._C._functorch
    while functorch.is_functorch_wrapped_tensor(t):
        if functorch.is_batchedtensor(t):
            return True
        t = functorch.get_unwrapped(t)
    return False


def _sizes_as_ints(value: Any, depth: int = 0) -> Any:
    if isinstance(value, torch.Tensor) and value.numel() == 1 and _integral(value):
        return int(value.item())
    if type(value) in (list, tuple) and depth < 2:
        return type(value)(_sizes_as_ints(v, depth + 1) for v in value)
    return value


def to_meta(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        if value.dim() == 0 and _integral(value):
            return int(value.item())  # a size: the meta run needs its value
        return torch.empty(value.shape, dtype=value.dtype, device="meta")
    if type(value) in (list, tuple):
        return type(value)(to_meta(v) for v in value)
    return value


def meta_numel(result: Any) -> int:
    if isinstance(result, torch.Tensor):
        return result.numel()
    if isinstance(result, (tuple, list)):
        return max((meta_numel(r) for r in result), default=0)
    if isinstance(result, torch.nn.Module):
        return max((p.numel() for p in result.parameters()), default=0)
    return 0


def refusal(name: str, numel: float, limit: int) -> LimitError:
    return LimitError(
        f"{name}() would make a tensor of {int(numel):,} elements; the limit is "
        f"{limit:,} elements per tensor"
    )


def check_call(
    name: str,
    fn: Callable[..., Any],
    args: tuple[Any, ...] | list[Any],
    kwargs: dict[str, Any],
    limit: int,
    method_of: torch.Tensor | None = None,
) -> None:
    """Refuse `fn(*args, **kwargs)` if its result would exceed `limit` elements."""
    if name == "one_hot":
        _check_one_hot(args, kwargs, limit)
        return
    if name == "scaled_dot_product_attention":
        _check_scaled_dot_product(args, kwargs, limit)
        return
    if name in ("bincount", "histc"):
        _check_counts(name, args, kwargs, limit, method_of)
        return
    if name in _SPLITTING:
        _check_pieces(name, args, kwargs, method_of)
        return
    if name in ("tensor", "as_tensor") and args and type(args[0]) in (list, tuple):
        items = count_items(args[0], limit + 1)
        if items > limit:
            raise refusal(name, items, limit)
    values = list(args)
    if kwargs:
        values.extend(kwargs.values())
    if method_of is not None:
        values.append(method_of)
    if name not in GROWERS:
        # Only a broadcast of two tensors or more can outgrow its inputs (most calls).
        tensors = 0
        for v in values:
            if isinstance(v, torch.Tensor):
                tensors += 1
        if tensors < 2:
            return
    prod_numbers, prod_tensors, sum_tensors = numbers_product(values)
    if name == "arange":
        _check_arange(args, kwargs, limit)
    if name in _CONVOLUTIONS:
        _check_convolution(name, fn, args, kwargs, limit, method_of)
    bound = prod_numbers * prod_tensors
    if name in _SQUARING:
        bound = bound * bound
    bound = max(bound, sum_tensors)
    if bound <= limit:
        return
    numel = _dry_run(fn, args, kwargs, method_of, name)
    if numel is None:
        # A meta tensor is no size: one-element integer tensors given as sizes are
        # handed to the dry run as the numbers torch reads them as.
        numel = _dry_run(
            fn, _sizes_as_ints(args), {k: _sizes_as_ints(v) for k, v in kwargs.items()},
            method_of, name,
        )  # fmt: skip
    if numel is not None and numel > limit:
        raise refusal(name, numel, limit)


_CONVOLUTIONS = frozenset({"conv1d", "conv2d", "conv_transpose2d"})
# Multiply-adds one call may cost, per element of the tensor limit: one C call that the
# wall-clock alarm cannot interrupt (a 280x280 kernel over 560x560 is 6e9).
OPS_PER_ELEMENT = 300


def _check_convolution(
    name: str,
    fn: Callable[..., Any],
    args: Any,
    kwargs: dict[str, Any],
    limit: int,
    method_of: torch.Tensor | None,
) -> None:
    x = args[0] if args else kwargs.get("input")
    weight = args[1] if len(args) > 1 else kwargs.get("weight")
    if not isinstance(weight, torch.Tensor) or weight.dim() < 2 or not isinstance(x, torch.Tensor):
        return
    padded = name == "conv_transpose2d" or len(args) > 4 or "padding" in kwargs
    if not padded and x.numel() * weight.numel() <= limit * OPS_PER_ELEMENT:
        return  # unpadded: at most one output per input position, each weight-sized
    numel = _dry_run(fn, args, kwargs, method_of, name)
    if numel is None:
        return
    per_output = weight.numel() // max(weight.shape[0], 1)
    if name == "conv_transpose2d":
        per_output = weight.numel() // max(weight.shape[1], 1)
    cost = numel * per_output
    if cost > limit * OPS_PER_ELEMENT:
        raise LimitError(
            f"{name}() would take {cost:,} multiply-adds; the limit is "
            f"{limit * OPS_PER_ELEMENT:,} per operation"
        )


def _number(value: Any) -> float | None:
    # numpy's integers are numbers to torch too (np.int64 is no int subclass).
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        return float(value)
    if (
        isinstance(value, torch.Tensor)
        and value.numel() == 1
        and value.device.type != "meta"
        and not in_vmap(value)
    ):
        return float(value.item())
    return None


def _check_arange(args: Any, kwargs: dict[str, Any], limit: int) -> None:
    """arange(0, 1, 1e-8) is 10**8 elements though none of its numbers is large."""
    values: dict[str, Any] = {"start": 0, "end": None, "step": 1}
    if len(args) == 1:
        values["end"] = args[0]
    else:
        values.update(zip(("start", "end", "step"), args))
    values.update({k: kwargs[k] for k in values if k in kwargs})
    start, end, step = (_number(values[k]) for k in ("start", "end", "step"))
    if start is None or end is None or step is None or step == 0:
        return  # torch refuses these itself
    if not all(map(math.isfinite, (start, end, step))):
        return
    count = math.ceil((end - start) / step)
    if count > limit:
        raise refusal("arange", count, limit)


def _check_one_hot(args: Any, kwargs: dict[str, Any], limit: int) -> None:
    x = args[0] if args else kwargs.get("tensor")
    number = _number(args[1] if len(args) > 1 else kwargs.get("num_classes", -1))
    if not isinstance(x, torch.Tensor) or number is None:  # numpy's and 0-dim too
        return
    classes = int(number)
    if classes < 0 and x.numel() > 0 and not x.is_floating_point():
        classes = int(x.max()) + 1
    if x.numel() * max(classes, 1) > limit:
        raise refusal("one_hot", x.numel() * classes, limit)


def _check_counts(
    name: str, args: Any, kwargs: dict[str, Any], limit: int, method_of: torch.Tensor | None
) -> None:
    """bincount makes one count per value up to the largest, histc one per bin: sizes
    read from a tensor's values or a number, which neither the inputs' sizes nor the
    meta device (no values) bound."""
    values = [method_of, *args] if method_of is not None else list(args)
    x = values[0] if values else kwargs.get("input")
    if name == "histc":
        bins = values[1] if len(values) > 1 else kwargs.get("bins", 100)
        count = _number(bins)
    else:
        minlength = values[2] if len(values) > 2 else kwargs.get("minlength", 0)
        count = _number(minlength)
        if isinstance(x, torch.Tensor) and x.numel() > 0 and _integral(x):
            count = max(count or 0, float(x.max()) + 1)
    if count is not None and count > limit:
        raise refusal(name, count, limit)


_SPLITTING = frozenset({"split", "chunk", "tensor_split", "unbind", "hsplit", "vsplit", "dsplit"})
# The tensors one split may make, as many as a loop may take: torch makes every piece (a
# tensor object each, some 700 bytes) in one C call, before any is checked or recorded.
# tensor_split(one_element, 3_000_000) took 2 GB and 6 s so.
PIECES = Limits().loop_iterations


def check_tensor_count(args: Any, kwargs: dict[str, Any]) -> None:
    """A torch call given more tensors than a split may make: broadcast_tensors and
    meshgrid make one tensor per input, autograd.grad one gradient per input, each an
    object of some 700 bytes, in C (900,000 references to one tensor took 2.7 GB)."""
    values = (*args, *kwargs.values())
    # Every torch call with lists comes here: torch.tensor(rows) of a million numbers
    # needs no walk, since its lengths alone are within the bound.
    if sum(len(v) if type(v) is list or type(v) is tuple else 1 for v in values) <= PIECES:
        return
    count = 0
    for value in values:
        if type(value) is list or type(value) is tuple:
            count += sum(1 for item in value if isinstance(item, torch.Tensor))
        elif isinstance(value, torch.Tensor):
            count += 1
    if count > PIECES:
        raise LimitError(
            f"a call given {count:,} tensors; the limit is {PIECES:,} (stack them into one)"
        )


def _check_pieces(
    name: str, args: Any, kwargs: dict[str, Any], method_of: torch.Tensor | None
) -> None:
    values = [method_of, *args] if method_of is not None else list(args)
    x = values[0] if values else kwargs.get("input", kwargs.get("tensor"))
    if not isinstance(x, torch.Tensor) or x.dim() == 0:
        return  # torch refuses these itself
    at = 1 if name == "unbind" else 2
    dim = values[at] if len(values) > at else kwargs.get("dim", 0)
    try:
        length = float(x.shape[dim])
    except (IndexError, TypeError, RuntimeError):
        length = float(max(x.shape))
    how = values[1] if len(values) > 1 else next(
        (kwargs[k] for k in ("split_size_or_sections", "split_size", "chunks", "sections",
                             "indices", "tensor_indices_or_sections", "indices_or_sections")
         if k in kwargs), None,
    )  # fmt: skip
    if name == "unbind" or how is None:
        pieces = length
    elif isinstance(how, (list, tuple)):
        pieces = len(how) + 1.0
    elif isinstance(how, torch.Tensor) and how.dim() > 0:
        pieces = how.numel() + 1.0
    else:
        number = _number(how)
        if number is None or number <= 0:
            return  # torch refuses these itself
        if name == "split":  # a size: a piece per `number` elements
            pieces = math.ceil(length / number)
        elif name == "chunk":  # never more chunks than elements
            pieces = min(number, length)
        else:  # sections
            pieces = number
    if pieces > PIECES:
        raise LimitError(
            f"{name}() would make {int(pieces):,} tensors; the limit is {PIECES:,} "
            "(use the tensor's own methods on it whole)"
        )


def _dry_run(
    fn: Callable[..., Any],
    args: Any,
    kwargs: dict[str, Any],
    method_of: torch.Tensor | None,
    name: str,
) -> int | None:
    """The output size on the meta device, or None when the op cannot run there."""
    try:
        meta_args = to_meta(list(args))
        meta_kwargs = {k: to_meta(v) for k, v in kwargs.items()}
        if method_of is not None:
            result = getattr(to_meta(method_of), name)(*meta_args, **meta_kwargs)
        else:
            meta_kwargs.pop("device", None)
            with torch.device("meta"):
                result = fn(*meta_args, **meta_kwargs)
        return meta_numel(result)
    except LimitError:
        raise
    except Exception:
        return None


def count_items(value: Any, budget: int) -> int:
    """Leaves of nested lists, tuples, dicts and sets, counting at most `budget`.

    `[[0] * 10**5] * 10**5` holds one inner list 10**5 times: small in memory, but
    `str()` or `torch.tensor()` of it would walk 10**10 items.
    """
    total = 0
    stack = [value]
    while stack and total < budget:
        item = stack.pop()
        kind = type(item)
        if kind is list or kind is tuple or kind is set or kind is frozenset:
            stack.extend(item)
        elif kind is dict:
            stack.extend(item.keys())
            stack.extend(item.values())
        else:
            total += 1
    return total


NESTING_DEPTH = 100
NESTED_CONTAINERS = 1_000_000
NESTED = frozenset({tuple, list, set, frozenset, dict})


def check_nesting(value: Any) -> None:
    """Hashing a tuple recurses in C without a depth check (a tuple nested 10**5 deep
    crashes the process), and hashing or comparing walks a shared item each time it
    occurs (`t = (t, t)` repeated 100 times is 2**100 steps): bound the containers a
    program hashes (dict keys, set items, `in`) or compares, before C walks them."""
    if type(value) not in NESTED and not isinstance(value, tuple):
        return  # (a namedtuple or another tuple subclass hashes as a tuple does)
    stack: list[tuple[Any, int]] = [(value, 0)]
    containers = 0
    while stack:
        item, depth = stack.pop()
        containers += 1
        if depth > NESTING_DEPTH or containers > NESTED_CONTAINERS:
            raise LimitError(
                f"containers nested more than {NESTING_DEPTH} deep, or holding more than "
                f"{NESTED_CONTAINERS:,} containers, cannot be hashed or compared here"
            )
        for sub in item.values() if type(item) is dict else item:
            if type(sub) in NESTED or isinstance(sub, tuple):
                stack.append((sub, depth + 1))
        if type(item) is dict:
            stack.extend((k, depth + 1) for k in item if type(k) in NESTED or isinstance(k, tuple))


def check_index(tensor: torch.Tensor, index: Any, limit: int) -> None:
    """Advanced indexing with index tensors or lists can make far more than it reads."""
    parts = index if isinstance(index, tuple) else (index,)
    sizes = [p.numel() for p in parts if isinstance(p, torch.Tensor)]
    sizes += [count_items(p, limit + 1) for p in parts if type(p) is list]
    if not sizes:
        return
    bound = tensor.numel() * max(1, math.prod(max(s, 1) for s in sizes))
    if bound <= limit:
        return
    try:
        meta_index = tuple(to_meta(p) if isinstance(p, torch.Tensor) else p for p in parts)
        if any(isinstance(p, torch.Tensor) and p.dtype == torch.bool for p in parts):
            return  # a mask selects at most what the tensor holds
        numel = to_meta(tensor)[meta_index if isinstance(index, tuple) else meta_index[0]].numel()
    except Exception:
        return
    if numel > limit:
        raise refusal("indexing", numel, limit)


__all__ = [
    "GROWERS",
    "check_call",
]


def _check_scaled_dot_product(args: Any, kwargs: dict[str, Any], limit: int) -> None:
    """F.scaled_dot_product_attention(q, k, v): a score for each query and key position
    of each batch and head (..., L, E) x (..., S, E), made in one C call, and the scores
    times v: both bounded before torch computes them."""
    query = args[0] if args else kwargs.get("query")
    key = args[1] if len(args) > 1 else kwargs.get("key")
    value = args[2] if len(args) > 2 else kwargs.get("value")
    if not (
        isinstance(query, torch.Tensor)
        and isinstance(key, torch.Tensor)
        and isinstance(value, torch.Tensor)
        and min(query.dim(), key.dim(), value.dim()) >= 2
    ):
        return  # torch refuses it itself
    mask = args[3] if len(args) > 3 else kwargs.get("attn_mask")
    batched = [t.shape[:-2] for t in (query, key, value)]
    if isinstance(mask, torch.Tensor) and mask.dim() >= 2:
        batched.append(mask.shape[:-2])
    # Each batch dim at its widest over q, k, v and the mask: what broadcasting makes, and
    # at least what torch makes when it repeats key heads for query heads (enable_gqa).
    batch = math.prod(_widest_dims(batched))
    scores = batch * int(query.shape[-2]) * int(key.shape[-2])
    made = max(scores, batch * int(query.shape[-2]) * int(value.shape[-1]))
    if made > limit:
        raise LimitError(
            f"scaled_dot_product_attention() would make {made:,} scores or outputs; the "
            f"limit is {limit:,} elements per tensor"
        )
    cost = scores * (int(query.shape[-1]) + int(value.shape[-1]))
    if cost > limit * OPS_PER_ELEMENT:
        raise LimitError(
            f"scaled_dot_product_attention() would take {cost:,} multiply-adds; the limit "
            f"is {limit * OPS_PER_ELEMENT:,} per operation"
        )


def _widest_dims(shapes: list[torch.Size]) -> list[int]:
    """Shapes aligned from the right, each dim at its largest (1 where a shape lacks it)."""
    width = max((len(shape) for shape in shapes), default=0)
    dims = [1] * width
    for shape in shapes:
        for i, size in enumerate(reversed(shape)):
            dims[width - 1 - i] = max(dims[width - 1 - i], int(size))
    return dims

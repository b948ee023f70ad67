"""What arithmetic on tensors would make, checked before C computes it: the shape operands
broadcast to (the evaluator's operators, and the C functions that add, multiply or compare
what they are given: sum, max, math.prod, random.uniform), and a matmul's result."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import torch

from gradtrace.language.sizes import refusal, to_meta


def _broadcast_numel(sa: Sequence[int], sb: Sequence[int]) -> int | None:
    """Elements of the shape `sa` and `sb` broadcast to; None where they do not broadcast.

    torch.broadcast_shapes is Python-level and slow on this hot path; this is the same rule.
    """
    numel = 1
    for i in range(1, max(len(sa), len(sb)) + 1):
        da = sa[-i] if i <= len(sa) else 1
        db = sb[-i] if i <= len(sb) else 1
        if da != db and da != 1 and db != 1:
            return None
        numel *= max(da, db) if da != 0 and db != 0 else 0
    return numel


def check_operands(name: str, values: Iterable[Any], limit: int) -> None:
    """Refuse when the tensors and arrays among `values`, broadcast together (as the
    arithmetic of Python code that is given them does), would pass `limit` elements."""
    shapes = [tuple(v.shape) for v in values if isinstance(v, (torch.Tensor, np.ndarray))]
    if len(shapes) < 2:
        return
    try:
        shape = torch.broadcast_shapes(*shapes)
    except RuntimeError:
        return  # shapes that do not broadcast: the operation raises its own error
    numel = math.prod(shape)
    if numel > limit:
        raise refusal(name, numel, limit)


def check_combined(name: str, items: Any, start: Iterable[Any], limit: int) -> Any:
    """`items`, checked before C adds, multiplies or compares them one after another (sum,
    math.prod, itertools.accumulate, max): the tensors and arrays among them and `start`,
    broadcast together, within `limit`. An iterator is read into a list to be checked."""
    if isinstance(items, Iterator):
        items = list(items)  # a capped iterator (bounded_args): at most the item limit
    elif not isinstance(items, (list, tuple, set, frozenset, dict)):
        return items  # a tensor's rows, a range's numbers, a string's characters
    kinds = set(map(type, items))  # in C: a list of numbers costs no Python step per item
    kinds.update(map(type, start))
    if any(issubclass(kind, (torch.Tensor, np.ndarray)) for kind in kinds):
        check_operands(name, (*items, *start), limit)
    return items


def check_broadcast(name: str, a: torch.Tensor, b: torch.Tensor, limit: int) -> None:
    sa, sb = a.shape, b.shape
    if sa == sb:
        return
    numel = _broadcast_numel(sa, sb)
    # Shapes that do not broadcast: torch raises its own, clearer error when it runs the op.
    if numel is not None and numel > limit:
        raise refusal(name, numel, limit)


def _matmul_numel(a: torch.Size, b: torch.Size) -> int:
    """The size of a @ b (0 where the shapes do not fit: torch will say so itself)."""
    rows = a[-2] if len(a) >= 2 else 1
    cols = b[-1] if len(b) >= 2 else 1
    batch = _broadcast_numel(a[:-2], b[:-2])
    return 0 if batch is None else batch * rows * cols


def check_matmul(a: torch.Tensor, b: torch.Tensor, limit: int) -> None:
    if a.numel() * b.numel() <= limit or _matmul_numel(a.shape, b.shape) <= limit:
        return
    try:
        numel = torch.matmul(to_meta(a), to_meta(b)).numel()
    except Exception:
        return
    if numel > limit:
        raise refusal("matmul", numel, limit)


def checked_key(key: Callable[[Any], Any], name: str, limit: int) -> Callable[[Any], Any]:
    """`key` for sorted, max, min and list.sort: C compares what it returns (a tuple's items
    in turn), tensors broadcasting; each tensor or array among the keys is checked against
    the shapes of those before it."""
    seen: dict[tuple[int, ...], Any] = {}

    def checked(item: Any) -> Any:
        value = key(item)
        for part in value if type(value) is tuple else (value,):
            if isinstance(part, (torch.Tensor, np.ndarray)) and tuple(part.shape) not in seen:
                seen[tuple(part.shape)] = part
                check_operands(name, tuple(seen.values()), limit)
        return value

    return checked

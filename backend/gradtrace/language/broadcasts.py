"""What arithmetic on tensors would make, checked before C computes it: the shape operands
broadcast to (the evaluator's operators, and the C functions that add, multiply or compare
what they are given: sum, max, math.prod, random.uniform), and a matmul's result."""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np
import torch

from gradtrace.language.errors import LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.sizes import NESTED_CONTAINERS, refusal, to_meta

# Each tensor C adds or compares is a torch op (some 2 us) run past every time check:
# sorted() of a million scalar tensors ran 11 s past a 5 s limit. Twice the loop limit:
# well under a second.
TENSOR_OPERATIONS = 2 * Limits().loop_iterations

# Iterables whose items all have one shape: combining them broadcasts nothing.
_ALIKE = (torch.Tensor, np.ndarray, range, str, bytes, bytearray)


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
    check_shapes(
        name, [v.shape for v in values if isinstance(v, (torch.Tensor, np.ndarray))], limit
    )


def check_shapes(name: str, shapes: Sequence[Sequence[int]], limit: int) -> None:
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
    broadcast together, within `limit`. Any other iterable (an iterator, a class of the
    program's, a dict view) is read into a list, at most the item limit, to be checked."""
    if isinstance(items, _ALIKE):
        return items  # a tensor's or an array's rows, a range's numbers, a string's characters
    if not isinstance(items, (list, tuple, set, frozenset, dict)):
        from gradtrace.language.pymodules import bounded_iterable  # it imports operators

        items = list(bounded_iterable(iter(items)))
    kinds = set(map(type, items))  # in C: a list of numbers costs no Python step per item
    kinds.update(map(type, start))
    if any(issubclass(kind, (torch.Tensor, np.ndarray)) for kind in kinds):
        count = sum(isinstance(item, torch.Tensor) for item in items)
        check_operations(name, count * math.ceil(math.log2(count)) if name in _SORTING else count)
        check_operands(name, (*items, *start), limit)
    if name in _COMPARING and any(issubclass(kind, _CONTAINERS) for kind in kinds):
        check_compared(name, items, limit)  # sorted([(0, a), (0, b)]) compares a with b
    return items


# Those of check_combined's callers that compare items (tuples and lists item by item).
_COMPARING = frozenset({"max", "min", "sorted", "sort"})
_SORTING = frozenset({"sorted", "sort"})


def check_operations(name: str, count: int) -> None:
    if count > TENSOR_OPERATIONS:
        raise LimitError(
            f"{name}() would add or compare tensors {count:,} times in C, past every time "
            f"check; the limit is {TENSOR_OPERATIONS:,} (torch.stack them and use torch's "
            "own sum, max or sort)"
        )


def check_compared(name: str, values: Iterable[Any], limit: int) -> None:
    """C compares lists, tuples, deques and dicts (OrderedDict, defaultdict and Counter
    too) item by item (==, <, max, sorted, `in`): the
    tensors and arrays at one place (the same index or key, at the same depth) of any of
    `values` may meet, so each place's are checked broadcast together. Containers only
    walked where they hold containers, tensors or arrays (their item types read in C)."""
    places, sequences = _places(values)
    check_operations(name, sum(map(len, places.values())) // 2)
    for place, found in places.items():
        shapes = [v.shape for v in found]
        if any(isinstance(v, np.ndarray) for v in found):
            # An array compared with a list reads it as an array: [[0]] * 30000 is 30000x1.
            shapes += [nested_shape(seq) for seq in sequences.get(place, ())]
        check_shapes(name, shapes, limit)


_Places = dict[tuple[Any, ...], list[Any]]


def _places(values: Iterable[Any]) -> tuple[_Places, _Places]:
    """The tensors and arrays, and the sequences, at each place of `values`."""
    places: _Places = {}
    sequences: _Places = {}
    stack: list[tuple[tuple[Any, ...], Any]] = [((), v) for v in values]
    walked = 0
    while stack:
        place, value = stack.pop()
        if isinstance(value, (torch.Tensor, np.ndarray)):
            places.setdefault(place, []).append(value)
            continue
        walked += 1
        if walked > NESTED_CONTAINERS:  # `t = [t, t]` a hundred times over: 2**100 places
            raise LimitError(f"comparing more than {NESTED_CONTAINERS:,} containers in C")
        if isinstance(value, dict):
            if holds_deeper(dict.values(value)):
                stack.extend(((*place, ("key", k)), v) for k, v in dict.items(value))
        elif compared_in_c(value):
            sequences.setdefault(place, []).append(value)
            if holds_deeper(value):
                stack.extend(((*place, i), item) for i, item in enumerate(value))
    return places, sequences


def nested_shape(seq: Any) -> tuple[int, ...]:
    """The shape numpy reads a nested list (or tuple) as, from its first items."""
    shape: list[int] = []
    while compared_in_c(seq) and len(shape) < 64:
        shape.append(len(seq))
        if not seq:
            break
        seq = seq[0]
    return tuple(shape)


def check_containers(name: str, a: Any, b: Any, membership: bool, limit: int) -> Any:
    """C compares containers item by item, tensors at the same place broadcasting: `a == b`
    (or <) compares a's items with b's, `a in seq` compares a with each item of seq (a
    dict or a set hashes instead, and a tensor hashes by its identity). Both bounded by
    sizes.check_nesting first. Returns `b`, or what `a in b` reads in its place: what
    C would iterate (an iterator; a class of the program's without __contains__), each
    item checked before C compares it."""
    if not membership:
        if isinstance(a, dict) or (compared_in_c(a) and holds_deeper(a)):
            check_compared(name, (a, b), limit)
    elif compared_in_c(b) or isinstance(b, _VIEWS):
        check_each(a, b, limit, name)
    elif not hasattr(type(b), "__contains__") and _compares_deeper(a):
        # An iterator, or a class of the program's with __iter__ (or __getitem__) only
        try:
            items = iter(b)
        except TypeError:
            return b  # `in` raises its own error
        return _checked_items(a, items, name, limit)
    return b


def compared_in_c(value: Any) -> bool:
    """A sequence whose ==, <, `in`, count and index compare its items in C."""
    return type(value) is list or isinstance(value, (tuple, collections.deque))


# Views whose `in` compares with their values (items: the value at the item's key).
_VIEWS: tuple[type, ...] = (type({}.values()), type({}.items()))


def _checked_items(value: Any, items: Iterator[Any], name: str, limit: int) -> Iterator[Any]:
    for item in items:
        check_each(value, (item,), limit, name)
        yield item


def consecutive_key(
    key: Callable[[Any], Any] | None, name: str, limit: int
) -> Callable[[Any], Any]:
    """A key for itertools.groupby, which compares each item's key (the item itself without
    one) with the one before, in C: each checked against the one before first."""
    last: list[Any] = []

    def checked(item: Any) -> Any:
        value = item if key is None else key(item)
        if last:
            check_compared(name, (last[0], value), limit)
        last[:] = [value]
        return value

    return checked


def check_counted(
    counter: dict[Any, Any], name: str, args: tuple[Any, ...], kwargs: dict[str, Any], limit: int
) -> None:
    """A Counter's methods add its counts in C (update and subtract the counts of one
    key, total all of them) or compare them (most_common): the tensors and arrays among
    them checked, broadcast together, as + and < would check them. (c + d, c | d...:
    check_counters.)"""
    if name == "update" or name == "subtract":
        for other in (*args, kwargs):
            if isinstance(other, dict):
                check_compared(name, (counter, other), limit)
    elif name == "total" or name == "most_common":
        values = list(dict.values(counter))
        check_operands(name, values, limit)
        if name == "most_common":
            check_compared(name, values, limit)


def check_counters(name: str, a: Any, b: Any, limit: int) -> None:
    """c + d, c - d, c | d, c & d (and +=...): a Counter adds or compares the counts of
    each key the two share, in C."""
    if isinstance(a, collections.Counter) or isinstance(b, collections.Counter):
        check_compared(name, (a, b), limit)


def check_each(value: Any, items: Iterable[Any], limit: int, name: str = "comparison") -> None:
    """`value in items`, items.count(value), .index, .remove: C compares `value` with each
    item (a tensor or an array broadcasting against one, a container item by item)."""
    if isinstance(value, torch.Tensor):
        count = 0
        for item in items:
            if isinstance(item, torch.Tensor):
                check_broadcast(name, value, item, limit)
                count += 1
            elif isinstance(item, np.ndarray):
                check_operands(name, (value, item), limit)
        check_operations(name, count)
    elif isinstance(value, np.ndarray):
        for item in items:
            if isinstance(item, (torch.Tensor, np.ndarray)) or compared_in_c(item):
                check_compared(name, (value, item), limit)  # a list read as an array
    elif _compares_deeper(value):
        for item in items:
            check_compared(name, (value, item), limit)


def _compares_deeper(value: Any) -> bool:
    """Compared with another object, `value` may broadcast tensors (in C)."""
    if isinstance(value, (torch.Tensor, np.ndarray, dict)):
        return True
    return compared_in_c(value) and holds_deeper(value)


def holds_deeper(items: Iterable[Any]) -> bool:
    return any(issubclass(kind, _DEEPER) for kind in set(map(type, items)))


_CONTAINERS = (list, tuple, dict, collections.deque)
_DEEPER = (torch.Tensor, np.ndarray, *_CONTAINERS)


def check_broadcast(name: str, a: torch.Tensor, b: torch.Tensor, limit: int) -> None:
    sa, sb = a.shape, b.shape
    if sa == sb or a.numel() * b.numel() <= limit:  # a broadcast makes at most the product
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
    """`key` for sorted, max, min and list.sort: C compares what it returns (a tuple's,
    a list's items in turn, at any depth), tensors broadcasting; each tensor or array
    among the keys is checked against the shapes of those before it at the same place."""
    seen: dict[tuple[Any, ...], dict[tuple[int, ...], Any]] = {}

    def checked(item: Any) -> Any:
        value = key(item)
        if _compares_deeper(value):
            for place, found in _places((value,))[0].items():
                shapes = seen.setdefault(place, {})
                new = [part for part in found if tuple(part.shape) not in shapes]
                if new:
                    shapes.update((tuple(part.shape), part) for part in new)
                    check_operands(name, tuple(shapes.values()), limit)
        return value

    return checked

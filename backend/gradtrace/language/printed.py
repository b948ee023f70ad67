"""How many characters str() of a container would write, bounded before C writes them:
`print(["x" * 10**5] * 20_000)` holds one string 20,000 times (few items, 2 billion
characters), and C builds the whole text before its length can be checked."""

from __future__ import annotations

import collections
from typing import Any

import torch
from torch._tensor_str import PRINT_OPTS
from torch.nn.parameter import UninitializedTensorMixin  # type: ignore[attr-defined]

from gradtrace.language import argument_specs

# What str() writes item by item, in C: namedtuples, deques and dict views too.
PRINTED_SEQUENCES: tuple[type, ...] = (
    list, tuple, set, frozenset, collections.deque,
    type({}.keys()), type({}.values()), type({}.items()),
)  # fmt: skip
PRINTED_CONTAINERS: tuple[type, ...] = (dict, *PRINTED_SEQUENCES)


def printed_chars(value: Any, budget: int) -> int:
    """A lower bound on the characters str() of nested lists, tuples, dicts and sets
    writes, counting at most `budget`: each container at least 2 (its brackets), each item
    at least 2 (itself and a separator), a string its length (quotes left out: `"%s" %
    (s,)` writes s alone), an integer its digits, a tensor 2 per element it prints.

    `str(["x" * 10**5] * 20_000)` holds one string 20,000 times: few items, but C
    writes 2 billion characters before the result's length can be checked. A container
    met again inside itself (`d["x"] = d`) is written `{...}` there, as C writes it.
    """
    total = 0
    inside: set[int] = set()  # the containers being written, around the current item
    stack: list[Any] = [value]
    while stack and total < budget:
        item = stack.pop()
        if type(item) is _Leave:
            inside.discard(item.key)
            continue
        kind = type(item)
        if kind is str:
            total += len(item)
        elif kind is int:
            total += max(2, item.bit_length() * 3 // 10)
        elif (
            isinstance(item, PRINTED_CONTAINERS)  # OrderedDict, defaultdict, Counter too
            or kind is argument_specs.Namespace  # argparse's: its names and values
        ):
            total += 2
            key = id(item)
            if key in inside:
                continue  # written as [...] or {...}
            inside.add(key)
            stack.append(_Leave(key))
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            elif kind is argument_specs.Namespace:
                stack.extend(item.__dict__.keys())
                stack.extend(item.__dict__.values())
            else:
                stack.extend(item)
        elif isinstance(item, torch.Tensor) and not isinstance(item, UninitializedTensorMixin):
            numel = item.numel()  # a lazy layer's weight has none yet: it prints short
            total += 2 * (numel if numel <= PRINT_OPTS.threshold else 1) + 8
        else:
            total += 2
    return total


class _Leave:
    """printed_chars' mark: the walk has left the container `key` names."""

    __slots__ = ("key",)

    def __init__(self, key: int) -> None:
        self.key = key

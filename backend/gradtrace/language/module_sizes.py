"""Size checks of nn.Modules, before torch allocates their tensors: a layer's
constructor (measured on the meta device), the copies a Transformer stack makes of its
layer, the weight a lazy layer makes from its first input, and the scores attention
makes in one C call."""

from __future__ import annotations

import math
from typing import Any

import torch

from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.sizes import OPS_PER_ELEMENT, meta_numel, numbers_product, refusal


def module_numel(module: torch.nn.Module) -> int:
    """Elements of a Module's parameters and buffers, read from torch's own tables (no
    method of a program's class runs), each tensor once."""
    total = 0
    seen: set[int] = set()
    stack = [module]
    while stack and len(seen) < 100_000:
        m = stack.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        table = m.__dict__
        for name in ("_parameters", "_buffers"):
            tensors = table.get(name)
            if type(tensors) is dict:
                for t in tensors.values():
                    if isinstance(t, torch.Tensor) and id(t) not in seen:
                        seen.add(id(t))
                        total += t.numel()
        children = table.get("_modules")
        if type(children) is dict:
            stack.extend(c for c in children.values() if isinstance(c, torch.nn.Module))
    return total


# Made of `num_layers` deep copies of a layer, inside torch.
_CLONING = (torch.nn.TransformerEncoder, torch.nn.TransformerDecoder)


def check_module_class(
    cls: type, args: Any, kwargs: dict[str, Any], limit: int, total: int | None = None
) -> None:
    """nn.Linear(10**6, 10**6) allocates in its constructor: measure it on meta first.
    With `total`, what all its tensors hold is bounded too, where torch multiplies it:
    TransformerEncoder's copies of a layer, nn.Transformer's stacks of layers."""
    if total is not None and issubclass(cls, _CLONING):
        layer = args[0] if args else next(iter(kwargs.values()), None)
        count = args[1] if len(args) > 1 else kwargs.get("num_layers")
        if isinstance(layer, torch.nn.Module) and isinstance(count, int):
            made = module_numel(layer) * count
            if made > total:
                raise LimitError(
                    f"{cls.__name__}() would copy its layer into {made:,} elements in all; "
                    f"the limit is {total:,} for the program's tensors"
                )
        return
    stacked = total is not None and cls is torch.nn.Transformer
    prod_numbers, _, _ = numbers_product(list(args) + list(kwargs.values()))
    if prod_numbers <= limit and not stacked:
        return
    try:
        with torch.device("meta"):
            module = cls(*args, **kwargs)
    except Exception:
        return
    numel = meta_numel(module)
    if numel > limit:
        raise refusal(cls.__name__, numel, limit)
    if stacked and total is not None and module_numel(module) > total:
        raise LimitError(
            f"{cls.__name__}() would make {module_numel(module):,} elements in all; the "
            f"limit is {total:,} for the program's tensors"
        )


def lazy_weight_numel(
    module: torch.nn.Module, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None
) -> int:
    """The size of the weight a lazy layer (nn.LazyLinear...) is about to make from the
    first input it sees: torch allocates it in a pre-hook, unchecked. The input is found
    where torch's pre-hook finds it (first positional, or `input=`), and the shape is
    worked out as torch's initialize_parameters works it out, from the layer's current
    attributes (a program may have set kernel_size or out_channels)."""
    x = args[0] if args else (kwargs or {}).get("input")
    if x is None:
        return 0
    if not isinstance(x, torch.Tensor):
        # torch reads .shape of whatever it is given: a program's object could answer
        # one shape here and another to torch.
        raise ForbiddenError(
            f"the first input of a {type(module).__name__} (which sizes its weight) must "
            "be a tensor"
        )
    if x.dim() == 0:
        return 0
    shape = x.shape
    if isinstance(module, torch.nn.LazyLinear):
        return max(int(module.out_features), 0) * int(shape[-1])
    if isinstance(module, torch.nn.modules.conv._LazyConvXdMixin):
        conv: Any = module
        in_channels = int(conv._get_in_channels(x))  # torch's own rule for which dim
        groups = int(conv.groups)
        if groups <= 0:
            return 0  # torch refuses it before making anything
        kernel = math.prod(max(int(k), 0) for k in conv.kernel_size)
        out_channels = max(int(conv.out_channels), 0)
        if conv.transposed:
            return in_channels * (out_channels // groups) * kernel
        return out_channels * (in_channels // groups) * kernel
    if isinstance(module, torch.nn.modules.batchnorm._LazyNormBase):
        return int(shape[1] if len(shape) > 1 else shape[0])
    return 0


def check_lazy_module(
    module: torch.nn.Module,
    args: tuple[Any, ...],
    limit: int,
    kwargs: dict[str, Any] | None = None,
) -> None:
    numel = lazy_weight_numel(module, args, kwargs)
    if numel > limit:
        raise refusal(type(module).__name__, numel, limit)


def check_attention(query: Any, key: Any, heads: int, limit: int) -> None:
    """Attention of `query` over `key` (MultiheadAttention, a Transformer layer's fast
    path): torch makes a score for each head, query position and key position in one
    C call, whatever the output's size. Positions are all but the last (embedding) dim;
    the batch is the smaller of the first two dims of a batched input, which bounds the
    scores from above whichever of them batch_first names."""
    if not isinstance(query, torch.Tensor) or not isinstance(key, torch.Tensor):
        return  # torch refuses it itself
    if query.dim() == 0 or key.dim() == 0:
        return
    embed = int(query.shape[-1])
    rows_q = query.numel() // max(embed, 1)
    rows_k = key.numel() // max(int(key.shape[-1]), 1)
    batch = min(int(query.shape[0]), int(query.shape[1])) if query.dim() == 3 else 1
    pairs = rows_q * rows_k // max(batch, 1)
    scores = max(heads, 1) * pairs
    if scores > limit:
        raise LimitError(
            f"attention of {rows_q:,} query and {rows_k:,} key positions would make "
            f"{scores:,} scores; the limit is {limit:,} elements per tensor"
        )
    cost = 2 * pairs * embed  # q @ k^T and the scores @ v, over all heads
    if cost > limit * OPS_PER_ELEMENT:
        raise LimitError(
            f"attention would take {cost:,} multiply-adds; the limit is "
            f"{limit * OPS_PER_ELEMENT:,} per operation"
        )

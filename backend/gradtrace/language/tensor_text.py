"""`str(tensor)` for the tensors programs print, as torch writes it, without its cost.

torch's printer (torch/_tensor_str.py) spends ~100 us on even a one-number tensor: a
dozen small torch ops to choose a number format, then formatting element by element.
Printing `x.grad` is the commonest line of a tutorial and loops print a loss every
step, so plain CPU tensors of the usual dtypes are written here from `tolist()` with
the same rules, in a few microseconds; anything else (subclasses, other devices or
layouts, complex numbers, empty tensors, tensors large enough to be summarised with
`...`) goes to torch's own printer. `tests/engine/test_tensor_text.py` holds the two to
the same output.
"""

from __future__ import annotations

import math
import re
from typing import Any

import torch
from torch._tensor_str import PRINT_OPTS
from torch.autograd import forward_ad

_INTEGRAL = frozenset({torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.bool})
_FLOATING = frozenset({torch.float16, torch.bfloat16, torch.float32, torch.float64})
_ALWAYS_DEFAULT = frozenset({torch.int64, torch.bool})
_PREFIX = "tensor("
# torch's printer names the device of tensors off the default one (read this way since
# torch 2.3); without it, leave printing to torch.
_default_device: Any = getattr(torch._C, "_get_default_device", None)


# Elements that a list or tuple of tensors may hold and still be written here: their
# repr() cannot lead back to the container (a cycle prints as `[...]` in Python).
_FLAT_ELEMENTS = frozenset({torch.Tensor, int, float, bool, str, type(None)})


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def scrub(text: str) -> str:
    """Text made from a program's values, without heap addresses (`<MulBackward0 object
    at 0x7f3a...>` becomes `... at 0x…>`): a program is not shown where the server's
    objects live."""
    if " at 0x" in text:
        return _ADDRESS.sub(" at 0x…", text)
    return text


def clean_text(text: str) -> str:
    """`text` as UTF-8 can carry it: a lone surrogate is written as its escape."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def value_str(value: Any) -> str:
    """Exactly `str(value)`, for a tensor or a flat list or tuple with tensors in it
    (`print(torch.autograd.grad(y, x))` prints a tuple of them)."""
    kind = type(value)
    if kind is torch.Tensor:
        return tensor_str(value)
    if (
        (kind is tuple or kind is list)
        and any(type(v) is torch.Tensor for v in value)
        and all(type(v) in _FLAT_ELEMENTS for v in value)
    ):
        items = ", ".join(tensor_str(v) if type(v) is torch.Tensor else repr(v) for v in value)
        if kind is list:
            return f"[{items}]"
        return f"({items},)" if len(value) == 1 else f"({items})"
    return str(value)


def tensor_str(t: torch.Tensor) -> str:
    """Exactly `str(t)`."""
    if not _plain(t):
        return str(t)
    dtype = t.dtype
    values = t.detach().tolist()
    if dtype in _FLOATING:
        number = _FloatFormat(_flat(values, t.dim()), PRINT_OPTS.precision, PRINT_OPTS.sci_mode)
        write: Any = number.write
        width = number.width
    else:
        width = max(len(str(v)) for v in _flat(values, t.dim()))

        def write(value: Any) -> str:
            text = str(value)
            return " " * (width - len(text)) + text

    indent = len(_PREFIX)
    body = _nested(values, t.dim(), indent, width, write)
    suffixes = []
    if dtype not in _ALWAYS_DEFAULT and dtype != torch.get_default_dtype():
        suffixes.append(f"dtype={dtype}")
    grad_fn_name = None
    try:
        grad_fn = t.grad_fn
    except RuntimeError:  # a view whose base was modified in place
        grad_fn_name = "Invalid"
    else:
        if grad_fn is not None:
            grad_fn_name = type(grad_fn).__name__
            if grad_fn_name == "CppFunction":
                grad_fn_name = grad_fn.name().rsplit("::", 1)[-1]
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _with_suffixes(_PREFIX + body, suffixes, indent)


def _plain(t: torch.Tensor) -> bool:
    """A tensor whose printing this module knows: everything else goes to torch."""
    return (
        type(t) is torch.Tensor
        and t.layout == torch.strided
        and t.is_cpu
        and (t.dtype in _FLOATING or t.dtype in _INTEGRAL)
        and 0 < t.numel() <= PRINT_OPTS.threshold
        and PRINT_OPTS.edgeitems > 0
        and not t.is_quantized
        and not t.is_nested
        and _default_device is not None
        and _default_device() == "cpu"
        and not torch._C._functorch.is_functorch_wrapped_tensor(t)
        # Inside a forward-mode AD level torch adds the tangent (programs cannot open one).
        and forward_ad._current_level < 0
    )


def _flat(values: Any, dim: int) -> list[Any]:
    if dim == 0:
        return [values]
    for _ in range(dim - 1):
        values = [v for row in values for v in row]
    return values  # type: ignore[no-any-return]


class _FloatFormat:
    """torch's `_Formatter` for floating tensors: one format and width for all elements."""

    def __init__(self, numbers: list[float], precision: int, sci_mode: bool | None) -> None:
        self.precision = precision
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        chosen = [v for v in numbers if v != 0 and math.isfinite(v)]
        if not chosen:
            return
        magnitudes = [abs(v) for v in chosen]
        smallest, largest = min(magnitudes), max(magnitudes)
        self.int_mode = all(v.is_integer() for v in chosen)
        self.sci_mode = (
            largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
            if sci_mode is None
            else sci_mode
        )
        if self.sci_mode:
            self.width = max(len(f"{v:.{precision}e}") for v in chosen)
        elif self.int_mode:
            self.width = max(len(f"{v:.0f}") + 1 for v in chosen)
        else:
            self.width = max(len(f"{v:.{precision}f}") for v in chosen)

    def write(self, value: float) -> str:
        if self.sci_mode:
            text = f"{value:{self.width}.{self.precision}e}"
        elif self.int_mode:
            text = f"{value:.0f}"
            if math.isfinite(value):
                text += "."
        else:
            text = f"{value:.{self.precision}f}"
        return " " * (self.width - len(text)) + text


def _nested(values: Any, dim: int, indent: int, width: int, write: Any) -> str:
    if dim == 0:
        return write(values)  # type: ignore[no-any-return]
    if dim == 1:
        per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (width + 2)))
        items = [write(v) for v in values]
        lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = [_nested(row, dim - 1, indent + 1, width, write) for row in values]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(rows) + "]"


def _with_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)

"""TensorData: a tensor's contents as the trace carries them (API.md).

Copying values is most of the cost of tracing a tensor program, so each tensor is
copied once, in bulk: small tensors are cloned when recorded and turned into numpy
arrays at the end (orjson writes numpy arrays at ~40 ns a number); large ones are
summarised (stats and a preview) right away and never copied whole.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import orjson
import torch

_NUMPY_OK = frozenset(
    {
        torch.float32, torch.float64, torch.float16, torch.int8, torch.int16, torch.int32,
        torch.int64, torch.uint8, torch.bool,
    }
)  # fmt: skip


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _number(value: float) -> float | str:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "nan"
    return "inf" if value > 0 else "-inf"


# Tensors up to this many elements are copied when they must be (256 KB of floats);
# larger ones are summarised at that moment instead.
_COPY_LIMIT = 65_536


class Snapshot:
    """A tensor's contents at one moment, copied only if they are about to change.

    Most tensors a program makes are never modified afterwards, so a snapshot starts as a
    reference plus the tensor's version counter. Every in-place change the evaluator can
    see (augmented assignment, item assignment, `_` methods, optimizer steps, `.data`)
    calls `freeze()` first, which takes the copy. Turning values into numbers and stats
    waits for `materialize()`, since pruning drops most snapshots of a long loop.
    """

    __slots__ = (
        "budgeted", "copy", "data", "dtype", "full", "json", "numel", "preview", "shape",
        "source",
    )  # fmt: skip

    def __init__(self, tensor: torch.Tensor, full_values: int, preview_values: int) -> None:
        self.shape = list(tensor.shape)
        self.dtype = dtype_name(tensor.dtype)
        self.numel = tensor.numel()
        self.full = self.numel <= full_values  # until the size budget says otherwise
        self.budgeted = False
        self.preview = preview_values
        self.data: dict[str, Any] | None = None
        self.json: orjson.Fragment | None = None
        self.copy: torch.Tensor | None = None
        self.source: torch.Tensor | None = tensor

    def freeze(self) -> None:
        """Copy the contents now: the tensor is about to change in place."""
        t = self.source
        if t is None or self.data is not None or self.copy is not None:
            return
        self.source = None
        t = t.detach()
        if self.numel <= _COPY_LIMIT:
            self.copy = t.to("cpu", copy=True, memory_format=torch.contiguous_format)
        else:
            self.data = _summary(t, self.shape, self.dtype, self.numel, self.preview)

    def materialize_tensor(self) -> torch.Tensor:
        """The contents as a CPU tensor (for checks inside the engine)."""
        if self.copy is not None:
            return self.copy
        if self.source is not None:
            return self.source.detach().cpu()
        raise ValueError("this snapshot kept only a summary")

    def materialize(self) -> dict[str, Any]:
        if self.data is None:
            if self.copy is None:
                assert self.source is not None
                t = self.source.detach()
                if t.device.type != "cpu":
                    t = t.cpu()
                self.copy = t if t.is_contiguous() else t.contiguous()
                self.source = None
            if self.full:
                self.data = _full(self.copy, self.shape, self.dtype, self.numel)
            else:
                self.data = _summary_of_copy(
                    self.copy, self.shape, self.dtype, self.numel, self.preview
                )
            self.copy = None
        return self.data

    def fragment(self) -> orjson.Fragment:
        """The TensorData as JSON, written once however many events share it."""
        if self.json is None:
            self.json = orjson.Fragment(
                orjson.dumps(self.materialize(), option=orjson.OPT_SERIALIZE_NUMPY)
            )
        return self.json

    def approx_bytes(self) -> int:
        """Its size in the JSON: about 12 characters a float32, plus shape, dtype and stats."""
        return 200 + 12 * (self.numel if self.full else min(self.preview, self.numel))

    def summarise(self, preview: int) -> None:
        """Send stats and a short preview instead of the values (past the size budget)."""
        if self.data is None:
            self.full = False
            self.preview = preview


def _as_numpy(t: torch.Tensor) -> np.ndarray[Any, Any]:
    if t.dtype not in _NUMPY_OK:
        if t.is_complex():
            t = torch.view_as_real(t)
        t = t.to(torch.float32) if t.is_floating_point() or t.is_complex() else t.to(torch.int64)
    return t.numpy()


def _no_finite_stats(nan: int, inf: int) -> dict[str, Any]:
    """Stats of a tensor with no finite element (or none at all): only the counts."""
    return {
        "min": None,
        "max": None,
        "mean": None,
        "std": None,
        "norm": None,
        "nan": nan,
        "inf": inf,
    }


def _stats(arr: np.ndarray[Any, Any]) -> dict[str, Any]:
    n = arr.size
    if n == 0:
        return _no_finite_stats(0, 0)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.int64)
    if n == 1:
        v = arr.reshape(-1)[0].item()
        if isinstance(v, float) and not math.isfinite(v):
            nan = int(math.isnan(v))
            return _no_finite_stats(nan, 1 - nan)
        return {
            "min": v,
            "max": v,
            "mean": float(v),
            "std": 0.0,
            "norm": abs(float(v)),
            "nan": 0,
            "inf": 0,
        }
    nan = inf = 0
    if arr.dtype.kind == "f":
        finite_mask = np.isfinite(arr)
        if not finite_mask.all():
            nan = int(np.isnan(arr).sum())
            inf = int(n - nan - finite_mask.sum())
            arr = arr[finite_mask]
            if arr.size == 0:
                return _no_finite_stats(nan, inf)
    wide = arr.astype(np.float64, copy=False)
    return {
        "min": arr.min().item(),
        "max": arr.max().item(),
        "mean": _number(float(wide.mean())),
        "std": _number(float(wide.std())),
        "norm": _number(float(np.sqrt(np.dot(wide.reshape(-1), wide.reshape(-1))))),
        "nan": nan,
        "inf": inf,
    }


def _values(arr: np.ndarray[Any, Any]) -> Any:
    if arr.ndim == 0:
        v = arr.item()
        return _number(v) if isinstance(v, float) else v
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        return _strings_for_nonfinite(arr.tolist())
    return arr


def _strings_for_nonfinite(values: Any) -> Any:
    if isinstance(values, list):
        return [_strings_for_nonfinite(v) for v in values]
    return _number(values) if isinstance(values, float) else values


def _full(t: torch.Tensor, shape: list[int], dtype: str, numel: int) -> dict[str, Any]:
    if numel == 1 and not t.is_complex():
        return _one(t.item(), shape, dtype)
    arr = _as_numpy(t)
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": numel,
        "values": _values(arr),
        "preview": None,
        "stats": _stats(arr),
    }


def _one(v: float | int | bool, shape: list[int], dtype: str) -> dict[str, Any]:
    """A one-element tensor, the commonest in tutorials, without numpy."""
    if isinstance(v, float) and not math.isfinite(v):
        nan = int(math.isnan(v))
        stats = _no_finite_stats(nan, 1 - nan)
        value: Any = _number(v)
    else:
        number = float(v)
        stats = {
            "min": v,
            "max": v,
            "mean": number,
            "std": 0.0,
            "norm": abs(number),
            "nan": 0,
            "inf": 0,
        }
        value = v
    for _ in shape:
        value = [value]
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": 1,
        "values": value,
        "preview": None,
        "stats": stats,
    }


def _summary_of_copy(
    t: torch.Tensor, shape: list[int], dtype: str, numel: int, preview: int
) -> dict[str, Any]:
    """A summary of a copy already on the CPU: numpy's reductions beat torch's on these sizes."""
    arr = _as_numpy(t).reshape(-1)
    head = arr[:preview]
    preview_values = head.tolist()
    if head.dtype.kind == "f" and not np.isfinite(head).all():
        preview_values = _strings_for_nonfinite(preview_values)
    stats = _stats(arr)
    for key in ("min", "max"):
        if isinstance(stats[key], float):
            stats[key] = _number(stats[key])
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": numel,
        "values": None,
        "preview": preview_values,
        "stats": stats,
    }


def _summary(
    t: torch.Tensor, shape: list[int], dtype: str, numel: int, preview: int
) -> dict[str, Any]:
    flat = t.reshape(-1)
    head = _as_numpy(flat[:preview].to("cpu"))
    stats: dict[str, Any]
    if t.is_floating_point() or t.is_complex() or numel == 0:
        f = flat.float() if not t.is_complex() else flat.abs().float()
        if numel == 0:
            stats = _stats(np.zeros(0))
        else:
            finite = torch.isfinite(f)
            nan = int(torch.isnan(f).sum())
            inf = int(numel - nan - int(finite.sum()))
            g = f[finite].double() if nan or inf else f.double()
            if g.numel() == 0:
                stats = _no_finite_stats(nan, inf)
            else:
                stats = {
                    "min": _number(float(g.min())),
                    "max": _number(float(g.max())),
                    "mean": _number(float(g.mean())),
                    "std": _number(float(g.std(unbiased=False))),
                    "norm": _number(float(g.norm())),
                    "nan": nan,
                    "inf": inf,
                }
    else:
        g = flat.to(torch.float64)
        stats = {
            "min": float(g.min()),
            "max": float(g.max()),
            "mean": float(g.mean()),
            "std": float(g.std(unbiased=False)),
            "norm": float(g.norm()),
            "nan": 0,
            "inf": 0,
        }
    preview_values = head.tolist()
    if head.dtype.kind == "f" and not np.isfinite(head).all():
        preview_values = _strings_for_nonfinite(preview_values)
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": numel,
        "values": None,
        "preview": preview_values,
        "stats": stats,
    }

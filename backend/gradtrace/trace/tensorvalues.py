"""A tensor's numbers as a TensorData carries them (API.md): its values, its stats and,
past the size budget, a summary (stats and a preview). The building blocks of
tensordata.py, which decides when each is made."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

NUMPY_OK = frozenset(
    {
        torch.float32, torch.float64, torch.float16, torch.int8, torch.int16, torch.int32,
        torch.int64, torch.uint8, torch.bool,
    }
)  # fmt: skip


def json_number(value: float) -> float | str:
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "nan"
    return "inf" if value > 0 else "-inf"


def as_numpy(t: torch.Tensor) -> np.ndarray[Any, Any]:
    if t.dtype not in NUMPY_OK:
        if t.is_complex():
            t = torch.view_as_real(t)
        t = t.to(torch.float32) if t.is_floating_point() or t.is_complex() else t.to(torch.int64)
    return t.numpy()


def stats_dict(
    lo: Any, hi: Any, mean: Any, std: Any, norm: Any, nan: int = 0, inf: int = 0
) -> dict[str, Any]:
    """TensorData's `stats`, in API.md's order."""
    return {"min": lo, "max": hi, "mean": mean, "std": std, "norm": norm, "nan": nan, "inf": inf}


def no_finite_stats(nan: int, inf: int) -> dict[str, Any]:
    """Stats of a tensor with no finite element (or none at all): only the counts."""
    return stats_dict(None, None, None, None, None, nan, inf)


def stats_of(arr: np.ndarray[Any, Any]) -> dict[str, Any]:
    n = arr.size
    if n == 0:
        return no_finite_stats(0, 0)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.int64)
    if n == 1:
        v = arr.reshape(-1)[0].item()
        if isinstance(v, float) and not math.isfinite(v):
            nan = int(math.isnan(v))
            return no_finite_stats(nan, 1 - nan)
        return stats_dict(v, v, float(v), 0.0, abs(float(v)))
    nan = inf = 0
    if arr.dtype.kind == "f":
        finite_mask = np.isfinite(arr)
        if not finite_mask.all():
            nan = int(np.isnan(arr).sum())
            inf = int(n - nan - finite_mask.sum())
            arr = arr[finite_mask]
            if arr.size == 0:
                return no_finite_stats(nan, inf)
    wide = arr.astype(np.float64, copy=False)
    return stats_dict(
        arr.min().item(),
        arr.max().item(),
        json_number(float(wide.mean())),
        json_number(float(wide.std())),
        json_number(float(np.sqrt(np.dot(wide.reshape(-1), wide.reshape(-1))))),
        nan,
        inf,
    )


def values_of(arr: np.ndarray[Any, Any]) -> Any:
    if arr.ndim == 0:
        v = arr.item()
        return json_number(v) if isinstance(v, float) else v
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        return strings_for_nonfinite(arr.tolist())
    return arr


def strings_for_nonfinite(values: Any) -> Any:
    if isinstance(values, list):
        return [strings_for_nonfinite(v) for v in values]
    return json_number(values) if isinstance(values, float) else values


def full(t: torch.Tensor, shape: list[int], dtype: str, numel: int) -> dict[str, Any]:
    if numel == 1 and not t.is_complex():
        return one(t.item(), shape, dtype)
    arr = as_numpy(t)
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": numel,
        "values": values_of(arr),
        "preview": None,
        "stats": stats_of(arr),
    }


def one(v: float | int | bool, shape: list[int], dtype: str) -> dict[str, Any]:
    """A one-element tensor, the commonest in tutorials, without numpy."""
    if isinstance(v, float) and not math.isfinite(v):
        nan = int(math.isnan(v))
        stats = no_finite_stats(nan, 1 - nan)
        value: Any = json_number(v)
    else:
        number = float(v)
        stats = stats_dict(v, v, number, 0.0, abs(number))
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


def _preview(head: np.ndarray[Any, Any]) -> list[Any]:
    """A summary's first numbers, as JSON carries them."""
    values = head.tolist()
    if head.dtype.kind == "f" and not np.isfinite(head).all():
        return list(strings_for_nonfinite(values))
    return list(values)


def summary_of_copy(
    t: torch.Tensor, shape: list[int], dtype: str, numel: int, preview: int
) -> dict[str, Any]:
    """A summary of a copy already on the CPU: numpy's reductions beat torch's on these sizes."""
    arr = as_numpy(t).reshape(-1)
    head = arr[:preview]
    stats = stats_of(arr)
    for key in ("min", "max"):
        if isinstance(stats[key], float):
            stats[key] = json_number(stats[key])
    return _summarised(shape, dtype, numel, head, stats)


def summary(
    t: torch.Tensor, shape: list[int], dtype: str, numel: int, preview: int
) -> dict[str, Any]:
    flat = t.reshape(-1)
    head = as_numpy(flat[:preview].to("cpu"))
    stats: dict[str, Any]
    if t.is_floating_point() or t.is_complex() or numel == 0:
        f = flat.float() if not t.is_complex() else flat.abs().float()
        if numel == 0:
            stats = stats_of(np.zeros(0))
        else:
            finite = torch.isfinite(f)
            nan = int(torch.isnan(f).sum())
            inf = int(numel - nan - int(finite.sum()))
            g = f[finite].double() if nan or inf else f.double()
            if g.numel() == 0:
                stats = no_finite_stats(nan, inf)
            else:
                stats = stats_dict(
                    json_number(float(g.min())),
                    json_number(float(g.max())),
                    json_number(float(g.mean())),
                    json_number(float(g.std(unbiased=False))),
                    json_number(float(g.norm())),
                    nan,
                    inf,
                )
    else:
        g = flat.to(torch.float64)
        stats = stats_dict(
            float(g.min()),
            float(g.max()),
            float(g.mean()),
            float(g.std(unbiased=False)),
            float(g.norm()),
        )
    return _summarised(shape, dtype, numel, head, stats)


def _summarised(
    shape: list[int], dtype: str, numel: int, head: np.ndarray[Any, Any], stats: dict[str, Any]
) -> dict[str, Any]:
    """A summary's TensorData: no values, a preview of the first elements, the stats."""
    return {
        "shape": shape,
        "dtype": dtype,
        "numel": numel,
        "values": None,
        "preview": _preview(head),
        "stats": stats,
    }

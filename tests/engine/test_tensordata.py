"""TensorData computed in bulk (materialize_all) against numpy, tensor by tensor."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import orjson
import pytest
import torch

from gradtrace.trace.tensordata import Snapshot, materialize_all

FULL, PREVIEW = 4_096, 64


def _tensors() -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(1)
    out: list[torch.Tensor] = []
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        for shape in ((), (1,), (3,), (2, 3), (8, 64), (70, 70)):
            for k in range(5):
                out.append((torch.randn(shape, generator=g) * (k + 1) + k).to(dtype))
    special = torch.randn(6, 5, generator=g)
    special[0, 1], special[2, 2], special[3, 0] = math.nan, math.inf, -math.inf
    out += [special[i].clone() for i in range(6)]
    out += [torch.full((4,), 3e38), torch.full((4,), -3e38), torch.tensor([1e30, 2e30, 3e30])]
    out += [torch.full((4,), math.nan), torch.tensor(math.inf), torch.tensor(-math.inf)]
    for dtype in (torch.int64, torch.int32, torch.uint8, torch.int8):
        out += [torch.randint(0, 100, (3, 4), generator=g).to(dtype) for _ in range(5)]
        out += [torch.tensor(7, dtype=dtype) for _ in range(5)]
    out += [torch.rand(5, generator=g) > 0.5 for _ in range(5)]
    out += [torch.tensor(True), torch.tensor(False)] * 3
    out += [torch.zeros(0), torch.zeros(2, 0), torch.randn(3, dtype=torch.complex64, generator=g)]
    out += [torch.randn(3, 4, generator=g).t() for _ in range(5)]  # not contiguous
    return out


def _plain(data: dict[str, Any]) -> Any:
    return orjson.loads(orjson.dumps(data, option=orjson.OPT_SERIALIZE_NUMPY))


def _expected_stats(t: torch.Tensor) -> dict[str, Any]:
    arr = t.detach().to(torch.float64 if not t.is_complex() else torch.complex128).numpy()
    if t.is_complex():
        arr = np.abs(arr)
    flat = arr.reshape(-1)
    nan = int(np.isnan(flat).sum())
    inf = int(np.isinf(flat).sum())
    finite = flat[np.isfinite(flat)]
    if finite.size == 0:
        return {
            "min": None,
            "max": None,
            "mean": None,
            "std": None,
            "norm": None,
            "nan": nan,
            "inf": inf,
        }
    return {
        "min": float(finite.min()),
        "max": float(finite.max()),
        "mean": float(finite.mean()),
        "std": float(finite.std()),
        "norm": float(np.sqrt(np.dot(finite, finite))),
        "nan": nan,
        "inf": inf,
    }


def _close(got: Any, want: Any, scale: float) -> bool:
    if want is None or got is None:
        return got is want
    return math.isclose(float(got), want, rel_tol=1e-5, abs_tol=1e-5 * scale)


@pytest.mark.parametrize("preview", [PREVIEW, 8])
def test_bulk_matches_numpy(preview: int) -> None:
    tensors = _tensors()
    snaps = [Snapshot(t, FULL, preview) for t in tensors]
    for s in snaps[::7]:
        s.summarise(preview)  # as the size budget would
    materialize_all(snaps)
    for t, snap in zip(tensors, snaps):
        data = _plain(snap.materialize())
        where = f"{t.dtype} {tuple(t.shape)}"
        assert data["shape"] == list(t.shape), where
        assert data["dtype"] == str(t.dtype).removeprefix("torch."), where
        assert data["numel"] == t.numel(), where
        expected = _expected_stats(t)
        stats = data["stats"]
        assert stats["nan"] == expected["nan"] and stats["inf"] == expected["inf"], where
        if t.numel() and not t.is_complex():
            scale = max(abs(expected["min"] or 0), abs(expected["max"] or 0), 1.0)
            for key in ("min", "max", "mean", "std", "norm"):
                assert _close(stats[key], expected[key], scale), (where, key, stats, expected)
        flat = t.detach().reshape(-1)
        if t.is_complex():
            flat = torch.view_as_real(flat).reshape(-1)
        numbers = (
            [_as_number(v) for v in flat.float().tolist()]
            if t.is_floating_point() or t.is_complex()
            else flat.tolist()
        )
        if snap.full and not t.is_complex():
            assert data["preview"] is None, where
            assert _same(_flatten(data["values"]), numbers, t.dtype), where
        elif not t.is_complex():
            assert data["values"] is None, where
            assert _same(data["preview"], numbers[: snap.preview], t.dtype), where


def _same(got: list[Any], want: list[Any], dtype: torch.dtype) -> bool:
    """Equal numbers; float32 ones written in float32's shortest form count as equal."""
    if dtype in (torch.float32, torch.float16, torch.bfloat16):
        return len(got) == len(want) and all(
            g == w or (not isinstance(g, str) and np.float32(g) == np.float32(w))
            for g, w in zip(got, want)
        )
    return got == want


def _as_number(v: float) -> float | str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _flatten(values: Any) -> list[Any]:
    if not isinstance(values, list):
        return [values]
    out: list[Any] = []
    for v in values:
        out.extend(_flatten(v))
    return out


def test_bulk_leaves_the_tensor_alone() -> None:
    t = torch.randn(5, 5)
    before = t.clone()
    snaps = [Snapshot(t, FULL, PREVIEW) for _ in range(6)]
    materialize_all(snaps)
    assert torch.equal(t, before)
    first = _plain(snaps[0].materialize())
    assert all(_plain(s.materialize()) == first for s in snaps[1:])
    assert first["values"] == _plain({"v": before.numpy()})["v"]


def _one_element_tensors() -> list[torch.Tensor]:
    out = [torch.tensor(v) for v in (0.5, -2.0, math.nan, math.inf, -math.inf, 3, True)]
    out += [torch.tensor([[1.5]]), torch.tensor([7], dtype=torch.int8)]
    out += [torch.tensor(0.25, dtype=torch.float16), torch.tensor(1 + 2j)]
    out.append(torch.tensor([2.0], requires_grad=True) * 3)
    return out


@pytest.mark.parametrize("full_values", [FULL, 0])
@pytest.mark.parametrize("made_first", [False, True])
def test_a_placed_dict_becomes_the_tensordata(full_values: int, made_first: bool) -> None:
    """JSON writing holds a one-element tensor's TensorData as the dict `placed()` gives
    before its values are read: once materialised it is what an unplaced snapshot of the
    same tensor gives, whichever way it is made (in bulk, one by one, before it was placed)."""
    tensors = _one_element_tensors()
    placed = [Snapshot(t, full_values, PREVIEW) for t in tensors]
    if made_first:
        for snap in placed:
            snap.release()  # a summary, or a copy, taken while the program ran
    dicts = [snap.placed() for snap in placed]
    materialize_all(placed)
    unplaced = [Snapshot(t, full_values, PREVIEW) for t in tensors]
    if made_first:
        for snap in unplaced:
            snap.release()
    materialize_all(unplaced)
    for t, snap, out, other in zip(tensors, placed, dicts, unplaced):
        want = other.materialize()
        assert snap.materialize() is out, t
        written = orjson.dumps(out, option=orjson.OPT_SERIALIZE_NUMPY)
        assert written == orjson.dumps(want, option=orjson.OPT_SERIALIZE_NUMPY), t

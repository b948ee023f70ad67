"""TensorData: a tensor's contents as the trace carries them (API.md).

Copying values is most of the cost of tracing a tensor program, so each tensor is
copied once, in bulk: small tensors are cloned when recorded and turned into numpy
arrays at the end (orjson writes numpy arrays at ~40 ns a number); large ones are
summarised (stats and a preview) right away and never copied whole.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np
import orjson
import torch

from gradtrace.trace.binary import Buffers
from gradtrace.trace.tensorvalues import (
    as_numpy,
    full,
    json_number,
    one,
    stats_dict,
    summary,
    summary_of_copy,
)

_DTYPE_NAMES: dict[torch.dtype, str] = {}


def dtype_name(dtype: torch.dtype) -> str:
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype).removeprefix("torch.")
    return name


# Tensors up to this many elements are copied when they must be (256 KB of floats);
# larger ones are summarised at that moment instead.
_COPY_LIMIT = 65_536


# TensorData's keys in API.md's order, every builder's below.
_TENSORDATA_KEYS: dict[str, Any] = dict.fromkeys(
    ("shape", "dtype", "numel", "values", "preview", "stats")
)


class Snapshot:
    """A tensor's contents at one moment, copied only if they are about to change.

    Most tensors a program makes are never modified afterwards, so a snapshot starts as a
    reference plus the tensor's version counter. Every in-place change the evaluator can
    see (augmented assignment, item assignment, `_` methods, optimizer steps, `.data`)
    calls `freeze()` first, which takes the copy. Turning values into numbers and stats
    waits for `materialize()`, since pruning drops most snapshots of a long loop.
    """

    __slots__ = (
        "_dtype", "_full", "_numel", "_shape", "copy", "data", "full_values", "json", "out",
        "placed_bytes", "preview", "shared", "source",
    )  # fmt: skip

    def __init__(self, tensor: torch.Tensor, full_values: int, preview_values: int) -> None:
        # Shape, dtype and size are read when first needed: most snapshots of a long loop
        # are pruned before anyone asks.
        self.source: torch.Tensor | None = tensor
        self.full_values = full_values
        self.preview = preview_values
        self._shape: list[int] | None = None
        self._dtype = ""
        self._numel = -1
        self._full: bool | None = None  # until the size budget says otherwise
        self.placed_bytes = -1  # its size in the trace, once the writer has placed it
        self.shared = False
        self.data: dict[str, Any] | None = None
        self.json: orjson.Fragment | None = None
        self.out: dict[str, Any] | None = None
        self.copy: torch.Tensor | None = None

    def _describe(self) -> None:
        t = self.source if self.source is not None else self.copy
        assert t is not None
        self._shape = list(t.shape)
        self._dtype = dtype_name(t.dtype)
        self._numel = t.numel()

    @property
    def shape(self) -> list[int]:
        if self._shape is None:
            self._describe()
        assert self._shape is not None
        return self._shape

    @property
    def dtype(self) -> str:
        if self._shape is None:
            self._describe()
        return self._dtype

    @property
    def numel(self) -> int:
        if self._shape is None:
            self._describe()
        return self._numel

    @property
    def full(self) -> bool:
        if self._full is None:
            self._full = self.numel <= self.full_values
        return self._full

    def freeze(self) -> None:
        """Copy the contents now: the tensor is about to change in place."""
        t = self.source
        if t is None or self.data is not None or self.copy is not None:
            return
        if self._shape is None:
            self._describe()
        t = t.detach()
        # Made first, then swapped in: the wall-time alarm may interrupt the work, and a
        # snapshot must never be left with neither its tensor nor what replaces it.
        if self.numel <= _COPY_LIMIT:
            self.copy = t.to("cpu", copy=True, memory_format=torch.contiguous_format)
        else:
            self.data = summary(t, self.shape, self.dtype, self.numel, self.preview)
        self.source = None

    def release(self) -> None:
        """Keep only what the trace will carry (a small tensor's copy, a large one's stats
        and preview) and let go of the tensor: the program no longer holds it."""
        t = self.source
        if t is None or self.data is not None or self.copy is not None:
            return
        if self._shape is None:
            self._describe()
        if self.full:
            self.cpu_copy()
        else:  # made first, then swapped in (as in freeze)
            self.data = summary(t.detach(), self.shape, self.dtype, self.numel, self.preview)
            self.source = None

    def materialize_tensor(self) -> torch.Tensor:
        """The contents as a CPU tensor (for checks inside the engine)."""
        if self.copy is not None:
            return self.copy
        if self.source is not None:
            return self.source.detach().cpu()
        raise ValueError("this snapshot kept only a summary")

    def cpu_copy(self) -> torch.Tensor | None:
        """The contents on the CPU, contiguous (None once only a summary is kept)."""
        if self.copy is None and self.source is not None:
            if self._shape is None:
                self._describe()
            t = self.source.detach()
            if not t.is_cpu:
                t = t.cpu()
            self.copy = t if t.is_contiguous() else t.contiguous()
            self.source = None
        return self.copy

    def materialize(self) -> dict[str, Any]:
        data = self.data
        if data is None:
            self.cpu_copy()
            assert self.copy is not None
            if self.full:
                data = self.keep(full(self.copy, self.shape, self.dtype, self.numel))
            else:
                data = self.keep(
                    summary_of_copy(self.copy, self.shape, self.dtype, self.numel, self.preview)
                )
            self.copy = None
        elif self.out is not None and self.out is not data:
            data = self.keep(data)  # made before it was placed: into the placed dict
        return data

    def keep(self, data: dict[str, Any]) -> dict[str, Any]:
        """Its TensorData, made: written into the dict `placed()` gave out, if it did."""
        out = self.out
        if out is not None and out is not data:
            out.update(data)
            data = out
        self.data = data
        return data

    def placed(self) -> dict[str, Any]:
        """A dict the trace can carry for this snapshot before its values are read: the
        TensorData, filled in when it is made (`keep`). JSON writing holds a one-element
        tensor's this way, which orjson writes without calling back into Python."""
        if self.out is None:
            # Its keys already in place: setting them then costs less than adding them.
            self.out = self.data if self.data is not None else _TENSORDATA_KEYS.copy()
        return self.out

    def approx_bytes(self) -> int:
        """Its size in the JSON: about 12 characters a float32, plus shape, dtype and stats."""
        # `numel` and `full` inlined: this runs for every place a TensorData is written.
        if self._shape is None:
            self._describe()
        numel = self._numel
        full = self._full
        if full is None:
            full = self._full = numel <= self.full_values
        return 200 + 12 * (numel if full else min(self.preview, numel))

    def summarise(self, preview: int) -> None:
        """Send stats and a short preview instead of the values (past the size budget)."""
        if self.data is None:
            self._full = False
            self.preview = preview

    def written(self) -> dict[str, Any] | orjson.Fragment:
        """What the trace's JSON carries: big TensorData met in several places is written once."""
        if self.json is not None:
            return self.json
        data = self.materialize()
        if self.shared and self.numel > 1:
            self.json = orjson.Fragment(orjson.dumps(data, option=orjson.OPT_SERIALIZE_NUMPY))
            return self.json
        return data

    def written_binary(self, buffers: Buffers) -> dict[str, Any] | orjson.Fragment:
        """The same for a binary trace: a float array's values go to `buffers`, and the
        TensorData refers to them (once, however many places it is met)."""
        if self.json is not None:
            return self.json
        data = self.materialize()
        values = data["values"]
        # Scalars and non-finite arrays were made lists (their JSON form), integers and
        # booleans stay JSON numbers: only arrays of finite floats go to the buffers, and
        # only one number per element (a complex tensor's (real, imag) pairs, twice its
        # numel, stay nested lists: a reader shapes a buffer by the TensorData's shape).
        if (
            isinstance(values, np.ndarray)
            and values.dtype.kind == "f"
            and values.size == data["numel"]
        ):
            data = {**data, "values": buffers.add(values)}
        if self.shared and self.numel > 1:  # as in written(): a scalar is cheaper inline
            self.json = orjson.Fragment(orjson.dumps(data, option=orjson.OPT_SERIALIZE_NUMPY))
            return self.json
        return data


# Dtypes whose snapshots are reduced together; the rest (complex, empty) go one by one.
_BATCHED = frozenset(
    {
        torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.int16,
        torch.int32, torch.int64, torch.uint8, torch.bool,
    }
)  # fmt: skip
_BATCHED_NAMES = frozenset(dtype_name(d) for d in _BATCHED)
# Groups smaller than this go one by one: stacking them would cost more than it saves.
_BATCH_MIN = 4
# Elements stacked at once, so a batch never holds much more memory than its tensors.
_BATCH_ELEMENTS = 1 << 20
# Small tensors in small groups are reduced in plain Python: a dozen numpy or torch calls
# cost ~30 us of overhead each time, Python's sum/min/max over a few numbers ~7 us.
_PYTHON_MAX_NUMEL = 64
_PYTHON_MAX_GROUP = 32
_CPU = torch.device("cpu")


def materialize_all(snaps: list[Snapshot]) -> None:
    """The numbers and stats of many snapshots at once, on one torch thread.

    Snapshots of one dtype and shape are stacked and reduced together: a few reductions
    over a (k, n) block instead of k rounds of small numpy calls, which cost more in
    call overhead than in arithmetic for the tensors tutorials make. One-element tensors,
    the commonest, need only their number.

    The program ran on one thread (session.py) and so do its trace's reductions: blocks
    this small gain nothing from a thread pool, whose every parallel step waits for all
    its threads; on a busy machine that wait was most of the time (RNN at 1,000 ops:
    ~90 ms of CPU on two threads, ~10 ms on one).
    """
    threads = torch.get_num_threads()
    if threads != 1:
        torch.set_num_threads(1)
    try:
        _materialize_all(snaps)
    finally:
        if threads != 1:
            torch.set_num_threads(threads)


@torch.no_grad()
def _materialize_all(snaps: list[Snapshot]) -> None:
    groups: dict[tuple[Any, ...], list[tuple[Snapshot, torch.Tensor]]] = {}
    for snap in snaps:
        if snap.data is not None:
            if snap.out is not None:
                snap.materialize()
            continue
        if snap._shape is None:
            snap._describe()
        # The dtype's name, read once already: asking torch again costs more than the lookup.
        dtype = snap._dtype
        if dtype not in _BATCHED_NAMES:
            snap.materialize()
            continue
        t = snap.copy if snap.copy is not None else snap.source
        assert t is not None
        numel = snap._numel
        if numel == 1:
            _scalar(snap, t.item())
        elif numel:
            # Building a torch.device costs more than the rest of the key: CPU is a flag.
            device = _CPU if t.is_cpu else t.device
            groups.setdefault((dtype, tuple(snap.shape), device), []).append((snap, t))
        else:
            snap.materialize()
    for (dtype, _shape, device), members in groups.items():
        numel = members[0][0].numel
        if (
            numel <= _PYTHON_MAX_NUMEL
            and len(members) < _PYTHON_MAX_GROUP
            and device is _CPU
            and dtype != "bool"
        ):
            for snap, _t in members:
                _small(snap, numel)
            continue
        # Stacking copies the group: tensors this large gain nothing from it, and the copy
        # can be more than a memory-capped worker has left (4 x 1M float64 is 32 MB).
        if len(members) < _BATCH_MIN or numel * _BATCH_MIN > _BATCH_ELEMENTS:
            for snap, _t in members:
                snap.materialize()
            continue
        step = max(_BATCH_ELEMENTS // numel, _BATCH_MIN)
        for start in range(0, len(members), step):
            _block(members[start : start + step], numel)


def _scalar(snap: Snapshot, v: Any) -> None:
    out = snap.out
    if out is not None and snap.full and (type(v) is not float or math.isfinite(v)):
        # The commonest TensorData of all, set in the dict the trace already holds.
        number = float(v)
        value = v
        for _ in snap.shape:
            value = [value]
        out["shape"] = snap.shape
        out["dtype"] = snap.dtype
        out["numel"] = 1
        out["values"] = value
        out["preview"] = None
        out["stats"] = {
            "min": v, "max": v, "mean": number, "std": 0.0, "norm": abs(number), "nan": 0,
            "inf": 0,
        }  # fmt: skip
        snap.data = out
    else:
        data = one(v, snap.shape, snap.dtype)
        if not snap.full:
            data["preview"] = [json_number(v) if isinstance(v, float) else v]
            data["values"] = None
        snap.keep(data)
    snap.copy = snap.source = None


def _small(snap: Snapshot, numel: int) -> None:
    t = snap.cpu_copy()
    assert t is not None
    arr = as_numpy(t)
    # numpy's tolist gives the same Python numbers as torch's, for less.
    flat = arr.reshape(-1).tolist()
    total = sum(flat)
    squares = sum(map(operator.mul, flat, flat))
    if not (math.isfinite(total) and math.isfinite(squares)):
        snap.materialize()  # NaN, infinity or overflow: counted one by one
        return
    mean = total / numel
    variance = sum([(v - mean) ** 2 for v in flat]) / numel
    full = snap.full
    snap.keep(
        {
            "shape": snap.shape,
            "dtype": snap.dtype,
            "numel": numel,
            "values": arr if full else None,
            "preview": None if full else flat[: snap.preview],
            "stats": stats_dict(
                min(flat), max(flat), mean, math.sqrt(variance), math.sqrt(squares)
            ),
        }
    )
    snap.copy = snap.source = None


def _block(members: list[tuple[Snapshot, torch.Tensor]], numel: int) -> None:
    block = torch.stack([t for _, t in members]).reshape(len(members), numel).cpu()
    if block.is_floating_point():
        # Reductions in the block's own precision (float32 at least): a float64 copy of the
        # block would cost more than all the rest. NaN or infinity anywhere in a row makes
        # its sum or norm non-finite, and so does overflow: those rows go one by one.
        numbers = block if block.dtype in (torch.float32, torch.float64) else block.float()
        sums = numbers.sum(1)
        norms_t = torch.linalg.vector_norm(numbers, dim=1)
        finite = torch.isfinite(sums) & torch.isfinite(norms_t)
        if not bool(finite.all()):
            rows = finite.tolist()
            for (snap, _), ok in zip(members, rows):
                if not ok:
                    snap.materialize()
            members = [m for m, ok in zip(members, rows) if ok]
            if not members:
                return
            block, numbers, sums, norms_t = (
                block[finite],
                numbers[finite],
                sums[finite],
                norms_t[finite],
            )
        means_t = sums / numel
        centred = numbers - means_t.unsqueeze(1)
        stds_t = (centred.square_().sum(1) / numel).sqrt_()
    else:
        numbers = block.to(torch.int64) if block.dtype == torch.bool else block
        wide = numbers.double()
        means_t = wide.mean(1)
        stds_t = wide.std(1, correction=0)
        norms_t = torch.linalg.vector_norm(wide, dim=1)
    arr = as_numpy(block)
    mins = numbers.amin(1).tolist()
    maxs = numbers.amax(1).tolist()
    means = means_t.tolist()
    stds = stds_t.tolist()
    norms = norms_t.tolist()
    for k, (snap, _) in enumerate(members):
        stats = stats_dict(mins[k], maxs[k], means[k], stds[k], norms[k])
        row = arr[k]
        full = snap.full
        snap.keep(
            {
                "shape": snap.shape,
                "dtype": snap.dtype,
                "numel": numel,
                "values": row.reshape(snap.shape) if full else None,
                "preview": None if full else row[: snap.preview].tolist(),
                "stats": stats,
            }
        )
        snap.copy = snap.source = None

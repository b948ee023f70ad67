"""torch's DataLoader as programs get it: no worker processes, and what it makes bounded.

torch builds batches in C and Python a program does not see: a sampler's permutation of
`len(dataset)`, a BatchSampler's index lists, collate's stacking. Each is bounded before
torch makes it (the batch size, a dataset's length read once, the elements collate would
stack), and every batch is checked however the loader is read (`for`, `enumerate`, `zip`,
`next(iter(...))`). On a GPU job, a shuffle draws on a generator on the job's device.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch
import torch.utils.data as tud

from gradtrace.language import callables
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.pymodules import capped_iterator

_DATALOADER_SIGNATURE = inspect.signature(tud.DataLoader.__init__)


def _job_limits() -> Limits:
    """The running job's limits (the defaults outside a job: a loader made by the host)."""
    try:
        return callables.current().limits
    except RuntimeError:
        return Limits()


def _dataset_length(dataset: Any, what: str) -> int:
    """`len(dataset)`, read once and bounded: torch turns it into C allocations (randperm(n)
    and its .tolist() for a shuffle or a split) before any of the program's code runs."""
    method = getattr(type(dataset), "__len__", None)
    if method is None:
        raise TypeError(f"{what}: the dataset has no len(): give its class a __len__ method")
    n = method(dataset)
    if type(n) is not int and type(n) is not bool:
        raise TypeError(f"{what}: len(dataset) must be an int, not {type(n).__name__}")
    if n < 0:
        raise ValueError(f"{what}: len(dataset) must be >= 0, not {n:,}")
    limit = _job_limits().sequence_items
    if n > limit:
        raise LimitError(
            f"{what}: a dataset of {n:,} items is over the limit ({limit:,} items of one sequence)"
        )
    return int(n)


class _CheckedLength:
    """What torch's samplers and random_split are given for a dataset: only its length,
    read and checked on each read (a program's __len__ may answer differently each time)."""

    __slots__ = ("dataset", "what")

    def __init__(self, dataset: Any, what: str) -> None:
        self.dataset = dataset
        self.what = what

    def __len__(self) -> int:
        return _dataset_length(self.dataset, self.what)


def _tensor_elements(value: Any) -> int:
    if isinstance(value, torch.Tensor):
        return int(value.numel())
    if isinstance(value, np.ndarray):
        return int(value.size)
    return 0


def _collated_elements(samples: list[Any], limits: Limits) -> int:
    """The elements torch's default_collate will stack from these samples, field by field,
    each field checked against the per-tensor limit before it is stacked; their sum is
    returned. Read with the containers' own (C) methods: a prediction, which a program's
    subclass may make wrong, but the batch is checked again once made."""
    elem = samples[0]
    made = 0
    if isinstance(elem, (torch.Tensor, np.ndarray)):
        made = sum(_tensor_elements(sample) for sample in samples)
    elif isinstance(elem, (bool, int, float, complex, np.number, np.bool_)):
        made = len(samples)
    elif isinstance(elem, dict):
        if not all(isinstance(sample, dict) for sample in samples):
            return 0
        for key in dict.keys(elem):
            try:
                field = [dict.__getitem__(sample, key) for sample in samples]
            except KeyError:
                return made  # collate raises the KeyError itself
            made += _collated_elements(field, limits)
        return made
    elif isinstance(elem, (tuple, list)):
        width = len(elem)
        if not all(isinstance(s, (tuple, list)) and len(s) == width for s in samples):
            return 0  # collate refuses samples of different lengths itself
        for i in range(width):
            made += _collated_elements([_item(sample, i) for sample in samples], limits)
        return made
    if made > limits.tensor_elements:
        raise LimitError(
            f"DataLoader: collating {len(samples):,} samples would make a tensor of "
            f"{made:,} elements, over the limit ({limits.tensor_elements:,} per tensor): "
            "use a smaller batch_size"
        )
    return made


def _item(sample: tuple[Any, ...] | list[Any], i: int) -> Any:
    return (
        tuple.__getitem__(sample, i) if isinstance(sample, tuple) else list.__getitem__(sample, i)
    )


def _samples_elements(samples: Any) -> int:
    """The tensor elements the samples hold in all, through dicts, tuples and lists."""
    total = 0
    seen: set[int] = set()
    stack = [samples]
    while stack:
        value = stack.pop()
        if isinstance(value, (torch.Tensor, np.ndarray)):
            total += _tensor_elements(value)
        elif isinstance(value, (dict, tuple, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(dict.values(value) if isinstance(value, dict) else value)
    return total


def _check_total(elements: int, limits: Limits, what: str) -> None:
    if elements > limits.total_elements:
        raise LimitError(
            f"DataLoader: {what} {elements:,} tensor elements in all, over the limit "
            f"({limits.total_elements:,} elements of all live tensors): use a smaller batch_size"
        )


class _CheckedCollate:
    """The loader's collate function, with the batch's size checked before it is made:
    torch's default_collate stacks each field in C, so the stacked sizes are predicted and
    bounded first; a program's own collate_fn runs through the interpreter's checked calls,
    and the samples it is handed are bounded in all."""

    __slots__ = ("collate", "default")

    def __init__(self, collate: Any, default: bool) -> None:
        self.collate = collate
        self.default = default

    def __call__(self, samples: Any) -> Any:
        limits = _job_limits()
        if self.default and isinstance(samples, list) and samples:
            _check_total(_collated_elements(samples, limits), limits, "collating would make")
        else:
            _check_total(_samples_elements(samples), limits, "the samples to collate hold")
        return self.collate(samples)


def check_batch(batch: Any) -> None:
    """A batch torch made (collate): every tensor, string and container in it, through
    dicts, tuples and lists, checked as the interpreter checks a call's result, and the
    tensors bounded in all."""
    try:
        interp = callables.current()
    except RuntimeError:
        interp = None
    limits = interp.limits if interp is not None else Limits()
    total = 0
    seen: set[int] = set()
    stack = [batch]
    while stack:
        value = stack.pop()
        if interp is not None:
            interp.check_size(value)
        if isinstance(value, (torch.Tensor, np.ndarray)):
            elements = _tensor_elements(value)
            if elements > limits.tensor_elements:
                raise LimitError(
                    f"a tensor of {elements:,} elements is over the limit "
                    f"({limits.tensor_elements:,} per tensor)"
                )
            total += elements
        elif isinstance(value, (dict, tuple, list)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(dict.values(value) if isinstance(value, dict) else value)
    _check_total(total, limits, "a batch holds")


class _Batches:
    """What iterating gradtrace's DataLoader gives, however it is iterated (`for`,
    enumerate, zip, list, next(iter(...))): torch's batches, each checked as it comes."""

    __slots__ = ("_batches",)

    def __init__(self, batches: Iterator[Any]) -> None:
        self._batches = batches

    def __iter__(self) -> _Batches:
        return self

    def __next__(self) -> Any:
        batch = next(self._batches)
        check_batch(batch)
        try:
            interp = callables.current()
        except RuntimeError:
            return batch
        # A step of the program's: read whole in C (`list(loader)`), the batches of an
        # IterableDataset whose __iter__ is a C iterator run no program code in between,
        # so the steps, the clock and the memory bound are read here.
        interp.tick()
        return batch

    def __len__(self) -> int:
        return len(self._batches)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        return "<DataLoader iterator>"


class DataLoader(tud.DataLoader):  # type: ignore[type-arg]
    """DataLoader without worker processes: a sandboxed job may not start any. Its sizes
    are bounded before torch allocates for them (batch_size, the dataset's length for a
    shuffle, each batch before collate stacks it) and every batch is checked once made."""

    def __init__(self, dataset: Any, *args: Any, **kwargs: Any) -> None:
        # Bound as torch binds them, so a positional num_workers is seen too.
        try:
            bound = _DATALOADER_SIGNATURE.bind(self, dataset, *args, **kwargs).arguments
        except TypeError as exc:
            raise TypeError(f"DataLoader(): {exc}") from None
        for refused in ("num_workers", "worker_init_fn", "multiprocessing_context", "pin_memory"):
            if bound.get(refused):
                raise ForbiddenError(
                    f"DataLoader({refused}=...) is not available in gradtrace: "
                    "leave it out (batches are loaded in the program's own process)"
                )
        arguments = {name: value for name, value in bound.items() if name != "self"}
        limit = _job_limits().sequence_items
        batch_size = arguments.get("batch_size", 1)
        # torch's BatchSampler builds [sampler] * batch_size (drop_last) before a batch.
        if isinstance(batch_size, int) and batch_size > limit:
            raise LimitError(
                f"DataLoader(batch_size={batch_size:,}) is over the limit "
                f"({limit:,} items of one sequence)"
            )
        if _shuffles(arguments):
            # torch's RandomSampler draws randperm(len(dataset)).tolist() each epoch: it is
            # given the dataset's length only, checked on every read.
            _dataset_length(dataset, "DataLoader(shuffle=True)")
            sized = _CheckedLength(dataset, "DataLoader(shuffle=True)")
            sampler = (
                _JobDeviceRandomSampler
                if torch.empty(0).device.type != "cpu"
                else tud.RandomSampler
            )
            arguments["sampler"] = sampler(sized, generator=bound.get("generator"))
            arguments["shuffle"] = None
        automatic = arguments.get("batch_size", 1) is not None or (
            arguments.get("batch_sampler") is not None
        )
        collate = arguments.get("collate_fn")
        if collate is None:
            if automatic:
                arguments["collate_fn"] = _CheckedCollate(tud.default_collate, default=True)
        else:
            arguments["collate_fn"] = _CheckedCollate(collate, default=False)
        super().__init__(**arguments)

    def __iter__(self) -> _Batches:  # type: ignore[override]
        return _Batches(super().__iter__())


# inspect.signature(DataLoader) reads torch's parameters, not the wrapper's *args.
DataLoader.__init__.__wrapped__ = tud.DataLoader.__init__  # type: ignore[attr-defined]


def _shuffles(arguments: dict[str, Any]) -> bool:
    """A shuffle torch would make with its own RandomSampler (which, on a job whose default
    device is a GPU, fails on its CPU generator: "Expected a 'cuda' device type for
    generator"; gradtrace's sampler draws on the job's device instead)."""
    return (
        bool(arguments.get("shuffle"))
        and arguments.get("sampler") is None
        and arguments.get("batch_sampler") is None
        and not isinstance(arguments["dataset"], tud.IterableDataset)
    )


class _JobDeviceRandomSampler(tud.RandomSampler):
    """torch's RandomSampler, whose per-epoch generator lives on the job's device: each
    epoch still draws its seed from the job's seeded default generator, as torch's does."""

    def __iter__(self) -> Iterator[int]:
        if self.generator is not None:
            return super().__iter__()
        seed = int(torch.empty((), dtype=torch.int64).random_().item())
        epoch = copy.copy(self)
        epoch.generator = torch.Generator(device=torch.empty(0).device)
        epoch.generator.manual_seed(seed)
        return tud.RandomSampler.__iter__(epoch)


class RandomSampler(_JobDeviceRandomSampler):
    """torch's RandomSampler, given the dataset's length only (read and checked on every
    read, as the DataLoader's shuffle is). torch draws lazily (32 indices at a time with
    replacement, a permutation of the dataset at a time without), so `num_samples` may be
    as large as minGPT's `int(1e10)`; an epoch is read through the item cap, so that a C
    consumer (`list(sampler)`, `sum`) stops at the limit. Each epoch draws on the job's
    device, seeded from the job's generator."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: torch.Generator | None = None,
    ) -> None:
        what = "RandomSampler()"
        _dataset_length(data_source, what)
        super().__init__(_CheckedLength(data_source, what), replacement, num_samples, generator)

    def __iter__(self) -> Iterator[int]:
        return capped_iterator(super().__iter__())  # type: ignore[no-any-return]


class SequentialSampler(tud.SequentialSampler):
    """torch's SequentialSampler (range(len(dataset))), given the dataset's length only,
    read and checked on every read."""

    def __init__(self, data_source: Any) -> None:
        what = "SequentialSampler()"
        _dataset_length(data_source, what)
        super().__init__(_CheckedLength(data_source, what))


for _sampler in (RandomSampler, SequentialSampler):
    _sampler.__qualname__ = _sampler.__name__
    _sampler.__module__ = "torch.utils.data.sampler"


def random_split(
    dataset: Any, lengths: Any, generator: torch.Generator | None = torch.default_generator
) -> list[tud.Subset[Any]]:
    # torch's, with the dataset's length bounded first: torch draws randperm(len(dataset))
    # .tolist() in one C call. It is given the length only (checked on every read), and the
    # subsets it makes are made again over the dataset itself.
    what = "random_split()"
    limit = _job_limits().sequence_items
    count = len(lengths)
    if count > limit:
        raise LimitError(f"{what}: {count:,} lengths are over the limit ({limit:,} items)")
    lengths = list(lengths)
    if all(type(length) is int for length in lengths) and sum(lengths) > limit:
        raise LimitError(
            f"{what}: lengths of {sum(lengths):,} items in all are over the limit "
            f"({limit:,} items of one sequence)"
        )
    _dataset_length(dataset, what)
    sized = _CheckedLength(dataset, what)
    # torch draws randperm on the default device with the generator given (the CPU's by
    # default), which a GPU job's default device refuses: the draw is made on the
    # generator's own device, so a split is the same on a CPU job and a GPU job.
    device = generator.device if isinstance(generator, torch.Generator) else torch.empty(0).device
    with torch.device(device):
        splits: list[tud.Subset[Any]] = tud.random_split(sized, lengths, generator=generator)  # type: ignore[arg-type]
    return [tud.Subset(dataset, split.indices) for split in splits]


random_split.__name__ = "random_split"
random_split.__qualname__ = "random_split"
random_split.__module__ = "torch.utils.data.dataset"
random_split.__doc__ = tud.random_split.__doc__  # the reference shows torch's first line


DataLoader.__name__ = "DataLoader"
DataLoader.__qualname__ = "DataLoader"
DataLoader.__module__ = "torch.utils.data.dataloader"


def refuse_concatenation(values: Any) -> None:
    """torch's Dataset.__add__ makes a ConcatDataset (ChainDataset for an iterable one), an
    object of torch's whose attributes, repr (with its address) and type gradtrace does not
    admit: refused for torch's own datasets (TensorDataset, Subset) as the program's
    Dataset classes refuse it, whether by `+`, `+=`, operator.add or sum()."""
    for value in values:
        if isinstance(value, tud.Dataset) and type(value).__add__ is tud.Dataset.__add__:
            raise concatenation_refused()


def concatenation_refused() -> ForbiddenError:
    return ForbiddenError(
        "adding datasets (torch's ConcatDataset) is not available in gradtrace: "
        "index both in one Dataset's __getitem__"
    )

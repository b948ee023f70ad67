"""The tensors an autograd Node saved for its backward, read by name.

torch's generated Node classes expose each saved value as a `_saved_<name>` attribute (a
tensor, a list of them, or a number); a custom Function's are its `saved_tensors`."""

from __future__ import annotations

from typing import Any

import torch

from gradtrace.trace.records import FunctionRec

Tensor = torch.Tensor
_BackwardCFunction = torch.autograd.function.BackwardCFunction
_saved_names_cache: dict[type, list[str]] = {}


def saved_names(kind: type) -> list[str]:
    """The `_saved_` attributes of a Node class that may hold tensors."""
    names = _saved_names_cache.get(kind)
    if names is None:
        names = [n for n in dir(kind) if n.startswith("_saved_")]
        # torch's own Node classes are cached; a program's custom Function is not: its
        # class leads to the program's code, and so to the job's recorder and tensors.
        if not issubclass(kind, _BackwardCFunction):
            _saved_names_cache[kind] = names
    return names


def _not_tensors(kind: type, name: str) -> None:
    """This saved attribute holds a number (torch's generated code types each one): skip it."""
    names = _saved_names_cache.get(kind)
    if names is not None and name in names:
        _saved_names_cache[kind] = [n for n in names if n != name]


def saved_of(frec: FunctionRec) -> list[tuple[str, Any]]:
    """The tensors a Node saved, by name. The caller sets the recorder's `peeking` around
    this, so none saved through the program's own hooks is unpacked by its code."""
    fn = frec.fn
    saved: list[tuple[str, Any]] = []
    if frec.custom:
        try:
            # save_for_backward(a, None) keeps a None in its place: not a tensor to show.
            return [
                (f"saved_tensors[{i}]", v)
                for i, v in enumerate(fn.saved_tensors)
                if isinstance(v, Tensor)
            ]
        except RuntimeError:
            return []
    for attr in saved_names(type(fn)):
        try:
            value = getattr(fn, attr)
        except RuntimeError:
            continue
        name = attr.removeprefix("_saved_")
        if isinstance(value, Tensor):
            saved.append((name, value))
        elif isinstance(value, (tuple, list)):
            if value and all(type(v) in (int, float) for v in value):
                _not_tensors(type(fn), attr)  # sizes or strides
            saved.extend((f"{name}[{i}]", v) for i, v in enumerate(value) if isinstance(v, Tensor))
        elif isinstance(value, (int, float, bool, str, torch.dtype, torch.device)):
            _not_tensors(type(fn), attr)
    return saved

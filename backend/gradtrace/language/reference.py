"""The names a program may use, for the editor's autocomplete and the docs page."""

from __future__ import annotations

from typing import Any, Literal

import torch
from pydantic import BaseModel

from gradtrace.language.attributes import _MODULE_ATTRIBUTES, _TENSOR_ATTRIBUTES, _TENSOR_METHODS
from gradtrace.language.namespaces import MODULES
from gradtrace.language.values import Namespace


class ReferenceEntry(BaseModel):
    name: str
    kind: Literal["module", "function", "class", "method", "attribute", "builtin", "keyword"]
    detail: str | None = None


class Reference(BaseModel):
    entries: list[ReferenceEntry]


def reference() -> Reference:
    """Everything the language admits, built from the evaluator's own allowlists."""

    return Reference(entries=reference_entries())


def reference_entries() -> list[ReferenceEntry]:
    from gradtrace.language.builtins import BUILTIN_NAMES
    from gradtrace.language.reference import ReferenceEntry

    entries: list[ReferenceEntry] = []
    seen: set[str] = set()

    def add(name: str, kind: Any, detail: str | None = None) -> None:
        if name not in seen:
            seen.add(name)
            entries.append(ReferenceEntry(name=name, kind=kind, detail=detail))

    for path, ns in MODULES.items():
        add(path, "module", f"import {path}")
        for member, value in ns.members.items():
            full = f"{path}.{member}"
            if isinstance(value, Namespace):
                continue
            if isinstance(value, type):
                add(full, "class", _first_line(value.__doc__))
            elif callable(value):
                add(full, "function", _first_line(getattr(value, "__doc__", None)))
            else:
                add(full, "attribute", repr(value))
    for name in sorted(_TENSOR_METHODS):
        add(
            f"Tensor.{name}",
            "method",
            _first_line(getattr(getattr(torch.Tensor, name, None), "__doc__", None)),
        )
    for name in sorted(_TENSOR_ATTRIBUTES):
        add(f"Tensor.{name}", "attribute")
    for name in sorted(_MODULE_ATTRIBUTES):
        add(f"Module.{name}", "method")
    for name in sorted(BUILTIN_NAMES):
        add(name, "builtin")
    return entries


def _first_line(doc: str | None) -> str | None:
    if not doc:
        return None
    for line in doc.strip().splitlines():
        line = line.strip()
        if line:
            return line[:160]
    return None

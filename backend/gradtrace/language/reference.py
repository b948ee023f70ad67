"""The names a program may use, for the editor's autocomplete and the docs page."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class ReferenceEntry(BaseModel):
    name: str
    kind: Literal["module", "function", "class", "method", "attribute", "builtin", "keyword"]
    detail: str | None = None


class Reference(BaseModel):
    entries: list[ReferenceEntry]


def reference() -> Reference:
    """Everything the language admits, built from the evaluator's own allowlists."""
    from gradtrace.language.namespaces import reference_entries

    return Reference(entries=reference_entries())

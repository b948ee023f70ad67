"""The errors a program can meet, beyond Python's own exception types."""

from __future__ import annotations

import ast


class ProgramError(Exception):
    """An error reported to the user, with the place in the source it belongs to."""

    type_name = "Error"

    def __init__(self, message: str, node: ast.AST | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node
        self.hint = hint


class ForbiddenError(ProgramError):
    """A construct the language refuses (eval, open, imports other than torch, `_` names)."""

    type_name = "ForbiddenError"


class LimitError(ProgramError):
    """A budget ran out (time, memory, size, iterations); the message names the limit."""

    type_name = "LimitError"

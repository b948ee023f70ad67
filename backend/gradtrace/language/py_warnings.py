"""Python's `warnings` for programs: the notebook boilerplate
`warnings.filterwarnings("ignore")`, `simplefilter`, `warn` and `catch_warnings()`.

A job runs inside its own `warnings.catch_warnings()` (trace/program_warnings.py), so the
filters a program adds are Python's own and end with the job. What a filter names is
checked first:
- its action: warnings as errors are refused (torch and the recorder warn from code the
  program does not own, which would then raise inside them);
- its message and module patterns: Python compiles them as regular expressions and
  matches every warning against them, where a crafted pattern backtracks without end in
  C. A pattern here is text (punctuation escaped with a backslash, as in Python) with
  `.*` at its start or end; it is compiled from escaped text, so matching is linear.
"""

from __future__ import annotations

import re
import warnings
from types import TracebackType
from typing import Any, Literal, cast

from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError

_ACTIONS = frozenset({"ignore", "always", "default", "once", "module"})
_PATTERN_CHARS = 200
_MESSAGE_CHARS = 1_000
_SPECIAL = frozenset(".^$*+?{}[]|()")


def _pattern(what: str, text: Any) -> str:
    """A filter's pattern as a regular expression Python matches in linear time."""
    if type(text) is not str:
        raise TypeError(f"{what} must be a str")
    if len(text) > _PATTERN_CHARS:
        raise ForbiddenError(f"a warnings {what} of over {_PATTERN_CHARS} characters")
    lead = text.startswith(".*")
    body = text[2:] if lead else text
    if body.endswith(".*") and not body.endswith("\\.*"):
        body = body[:-2]  # Python matches from the start: a trailing .* matches anything
    literal: list[str] = []
    chars = iter(body)
    for char in chars:
        if char == "\\":
            escaped = next(chars, "")
            if escaped.isalnum() or not escaped:
                raise ForbiddenError(_PATTERN_HINT.format(what=what))
            literal.append(escaped)
        elif char in _SPECIAL:
            raise ForbiddenError(_PATTERN_HINT.format(what=what))
        else:
            literal.append(char)
    return (".*" if lead else "") + re.escape("".join(literal))


_PATTERN_HINT = (
    "a warnings {what} here is text, with .* only at its start or end (Python would match "
    "every warning against any regular expression)"
)


_Action = Literal["ignore", "always", "default", "once", "module"]


def _action(action: Any) -> _Action:
    if action == "error":
        raise ForbiddenError(
            "warnings as errors are not available in gradtrace: torch and the trace warn "
            "from code the program does not own"
        )
    if type(action) is not str or action not in _ACTIONS:
        raise ValueError(f"invalid action: {action!r}")
    return cast(_Action, action)


def _category(category: Any) -> type[Warning]:
    if type(category) is Checked:
        category = category.wrapped_class()
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass")
    return category


def _lineno(lineno: Any) -> int:
    # Python's C warn reads it as a C ssize_t: past that, every later warning raises.
    if type(lineno) is not int or not 0 <= lineno < 2**31:
        raise ValueError("lineno must be an int >= 0 and < 2**31")
    return lineno


def filterwarnings(
    action: Any,
    message: Any = "",
    category: Any = Warning,
    module: Any = "",
    lineno: Any = 0,
    append: Any = False,
) -> None:
    """Add a warnings filter (Python's), for the rest of the job: "ignore", "always"..."""
    warnings.filterwarnings(
        _action(action),
        _pattern("message", message),
        _category(category),
        _pattern("module", module),
        _lineno(lineno),
        bool(append),
    )


def simplefilter(
    action: Any, category: Any = Warning, lineno: Any = 0, append: Any = False
) -> None:
    """Add a filter for every warning of a category (Python's), for the rest of the job."""
    warnings.simplefilter(_action(action), _category(category), _lineno(lineno), bool(append))


def resetwarnings() -> None:
    """No filters of the program's: each warning shown again, as the job starts."""
    warnings.resetwarnings()
    warnings.simplefilter("always")


def warn(message: Any, category: Any = None, stacklevel: Any = 1) -> None:
    """Issue a warning: the trace shows it at the line that issued it."""
    if isinstance(message, Warning):
        # Its text is read once, here: C would build str(message) of any args again.
        args = message.args
        if len(args) != 1 or type(args[0]) is not str:
            raise TypeError("a Warning given to warn() holds one str")
        text, kind = args[0], type(message)
    elif type(message) is str:
        text, kind = message, UserWarning if category is None else _category(category)
    else:
        raise TypeError("a warning's message is a str or a Warning")
    if len(text) > _MESSAGE_CHARS:
        raise ForbiddenError(f"a warning of over {_MESSAGE_CHARS:,} characters")
    if type(stacklevel) is not int:
        raise TypeError("stacklevel must be an int")
    here = callables.current().here
    line = getattr(here, "lineno", None)
    # As Python warns from the program's own module: "__main__", at its line. Without a
    # registry: Python's would be this module's globals, which outlive the job.
    warnings.warn_explicit(kind(text), kind, "<program>", line or 0, module="__main__")


class catch_warnings:
    """`with warnings.catch_warnings():` the program's filters undone when it ends.
    Recording the warnings into a list (record=True) is not available: they are the
    trace's."""

    def __init__(self, *, record: Any = False) -> None:
        if record:
            raise ForbiddenError(
                "catch_warnings(record=True) is not available in gradtrace: the trace "
                "shows the program's warnings"
            )
        self._saved = warnings.catch_warnings()

    def __enter__(self) -> None:
        self._saved.__enter__()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._saved.__exit__(kind, value, traceback)

    def __repr__(self) -> str:
        return "catch_warnings()"


catch_warnings.__module__ = "warnings"
for _function in (filterwarnings, simplefilter, resetwarnings, warn):
    _function.__module__ = "warnings"

_CATEGORIES = (
    Warning, UserWarning, DeprecationWarning, PendingDeprecationWarning, FutureWarning,
    RuntimeWarning,
)  # fmt: skip

MEMBERS: dict[str, Any] = {
    "filterwarnings": filterwarnings,
    "simplefilter": simplefilter,
    "resetwarnings": resetwarnings,
    "warn": warn,
    "catch_warnings": catch_warnings,
    **{cls.__name__: cls for cls in _CATEGORIES},
}

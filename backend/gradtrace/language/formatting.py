"""`str.format` and `print`: text a program makes from its values, bounded and scrubbed.

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gradtrace.language.builtins import check_format_spec
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.printed import printed_chars
from gradtrace.language.tensor_text import clean_text, scrub, value_str

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def format_string(
    self: Interpreter, template: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> str:
    """`str.format` with plain fields only: `{}`, `{0}`, `{name}`, with a spec."""
    import string

    out: list[str] = []
    length = 0
    auto = 0
    for literal, field, spec, conversion in string.Formatter().parse(template):
        out.append(literal)
        if field is None:
            continue
        if field == "":
            if auto >= len(args):
                raise IndexError(f"Replacement index {auto} out of range for positional args tuple")
            value = args[auto]
            auto += 1
        elif field.isdigit():
            index = int(field)
            if index >= len(args):
                raise IndexError(
                    f"Replacement index {index} out of range for positional args tuple"
                )
            value = args[index]
        elif field.isidentifier() and not field.startswith("_"):
            if field not in kwargs:
                raise KeyError(field)
            value = kwargs[field]
        else:
            raise ForbiddenError(
                f"format fields may only be plain names or numbers, not {{{field}}}"
            )
        spec = spec or ""
        check_format_spec(spec, self.limits.string_chars)
        self.check_printable(value)
        if conversion == "r":
            value = repr(value)
        elif conversion == "s":
            value = str(value)
        elif conversion == "a":
            value = ascii(value)
        piece = format(value, spec)
        # Each field within the limit, and all of them past it: counted before the join.
        length += len(literal) + len(piece)
        if length > self.limits.string_chars:
            raise LimitError(
                f"str.format would make more than {self.limits.string_chars:,} characters"
            )
        out.append(piece)
    text = scrub("".join(out))
    self.check_size(text)
    return text


def builtin_print(
    self: Interpreter, *args: Any, sep: str | None = " ", end: str | None = "\n", **kwargs: Any
) -> None:
    if kwargs.keys() - {"flush"}:
        bad = next(iter(kwargs.keys() - {"flush"}))
        raise ForbiddenError(f"print({bad}=...) is not supported: output goes to the page")
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    if not isinstance(sep, str) or not isinstance(end, str):
        raise TypeError("sep and end must be None or strings")
    for arg in args:
        self.check_printable(arg)
    # Each argument may be within the limits and all of them, joined in C, far past the
    # output's: print(*[s] * 20_000) of a 100,000-character s joined 2 billion.
    budget = self.limits.output_chars
    joints = len(sep) * max(len(args) - 1, 0) + len(end)  # sep=s between 30,000 items
    if joints + printed_chars(args, budget + 1) > budget:
        raise LimitError(f"the program printed more than {budget:,} characters")
    text = clean_text(scrub(sep.join(value_str(a) for a in args) + end))
    # The call being evaluated: this print, or what called it (`map(print, xs)`).
    self.rec.print(text, args, getattr(self.here, "lineno", None))

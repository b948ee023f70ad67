"""What one argparse argument is, for arguments.py: its names, action, type, choices and
default (`Argument`), how a value given as text becomes its value, and the Namespace the
parsed values go in; the errors and marker classes argparse's scripts name."""

from __future__ import annotations

import itertools
from reprlib import recursive_repr
from typing import Any

from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import LimitError
from gradtrace.language.values import UserFunction

MOST_ARGUMENTS = 256
_CHOICES_SHOWN = 50
# Actions that take no value from a command line.
_FLAGS = ("store_true", "store_false", "store_const", "append_const", "count", "help", "version")


class ArgumentError(Exception):
    """A command line argparse refuses (argparse prints its message and exits)."""


class ArgumentTypeError(Exception):
    """What a program's `type=` function raises for a value it refuses."""


class BooleanOptionalAction:
    """`action=argparse.BooleanOptionalAction`: `--flag` and `--no-flag`."""


class HelpFormatter:
    """How help is laid out: there is no help to write here."""


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class RawTextHelpFormatter(RawDescriptionHelpFormatter):
    pass


class MetavarTypeHelpFormatter(HelpFormatter):
    pass


class Namespace:
    """The parsed arguments, each an attribute (`args.lr`), in the order they were added."""

    def __init__(self, **kwargs: Any) -> None:
        self.__dict__.update(kwargs)

    def __contains__(self, key: object) -> bool:
        return type(key) is str and key in self.__dict__

    def __eq__(self, other: object) -> bool:
        # argparse compares vars(): here each value as plain data, else by identity (C
        # would ask a program object's __eq__).
        if type(other) is not Namespace:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        if len(mine) != len(theirs):
            return False
        for key, value in mine.items():
            if type(key) is not str or key not in theirs:
                return False
            if not _same(value, theirs[key]):
                return False
        return True

    __hash__ = None  # type: ignore[assignment]  # as argparse's

    @recursive_repr()  # one holding itself, or another that holds it: "..." there
    def __repr__(self) -> str:
        interp = callables.current()
        budget = interp.limits.string_chars
        parts: list[str] = []
        others: list[str] = []
        used = 0
        for name, value in list(self.__dict__.items()):
            interp.check_printable(value)
            text = repr(value)
            if type(name) is str and name.isidentifier():
                parts.append(f"{name}={text}")
            else:
                interp.check_printable(name)
                others.append(f"{name!r}: {text}")
            used += len(text) + 2
            if used > budget:
                raise LimitError(
                    f"printing this Namespace would write more than the string limit ({budget:,} "
                    "characters)"
                )
        if others:
            parts.append("**{" + ", ".join(others) + "}")
        return f"Namespace({', '.join(parts)})"


class Argument:
    """One add_argument(): where its value goes and how a command line gives it."""

    def __init__(
        self,
        names: tuple[str, ...],
        options: dict[str, Any],
        positional: bool,
        defaults: dict[str, Any] | None = None,
        fallback: Any = None,
    ) -> None:
        defaults = defaults or {}
        self.names = names
        self.positional = positional
        self.action = class_of(options.get("action")) or "store"
        self.nargs = options.get("nargs")
        self.const = options.get("const")
        self.type = class_of(options.get("type"))
        choices: Any = options.get("choices")
        # A copy: the program's list, changed later, is never read again.
        self.choices = tuple(choices) if type(choices) in (list, tuple) else choices
        self.required = bool(options.get("required", positional and self.nargs not in ("?", "*")))
        self.help = options.get("help")
        self.dest = options.get("dest") or _dest(names, positional)
        if "default" in options:
            self.default = options["default"]
        elif self.dest in defaults:  # set_defaults() before the argument was added
            self.default = defaults[self.dest]
        elif self.action == "store_true":
            self.default = False
        elif self.action == "store_false":
            self.default = True
        else:
            self.default = fallback  # ArgumentParser(argument_default=...)

    @property
    def shown(self) -> str:
        return self.dest if self.positional else "/".join(self.names)

    def convert(self, text: str) -> Any:
        """A value given as text, as its `type` makes it, checked against its choices."""
        value = self.typed(text)
        if self.choices is not None and not _plain_value(value):
            raise ArgumentError(f"argument {self.shown}: a value with choices is text or a number")
        if self.choices is not None and value not in self.choices:
            shown = [repr(c) for c in itertools.islice(self.choices, _CHOICES_SHOWN + 1)]
            if len(shown) > _CHOICES_SHOWN:
                shown[-1] = "..."
            raise ArgumentError(
                f"argument {self.shown}: invalid choice: {value!r} (choose from {', '.join(shown)})"
            )
        return value

    def typed(self, text: str) -> Any:
        """Text as the argument's `type` makes it (a text default too, unchecked)."""
        kind = self.type
        if kind is None or kind is str:
            value: Any = text
        else:
            name = _type_name(kind)
            try:
                if kind is int or kind is float or kind is complex or kind is bool:
                    value = kind(text)
                else:  # the program's own function, run as a call of the program
                    value = callables.current().invoke(kind, (text,), {}, None, None, name)
            except ArgumentTypeError as error:
                # Its message as argparse writes it, from text and numbers only (str() of a
                # program object would run its code here).
                plain = all(_plain_value(a) for a in error.args)
                reason = str(error) if plain else "an invalid value"
                raise ArgumentError(f"argument {self.shown}: {reason}") from None
            except (TypeError, ValueError):
                raise ArgumentError(
                    f"argument {self.shown}: invalid {name} value: {text!r}"
                ) from None
        return value

    def takes(self) -> tuple[int, int | None]:
        """How many values a command line gives it: at least, at most (None: any)."""
        if self.action in _FLAGS:
            return 0, 0
        if isinstance(self.action, type):  # BooleanOptionalAction
            return 0, 0
        nargs = self.nargs
        if nargs is None:
            return 1, 1
        if nargs == "?":
            return 0, 1
        if nargs == "*":
            return 0, None
        if nargs == "+":
            return 1, None
        return nargs, nargs


def class_of(value: Any) -> Any:
    """A class as the program holds it (its checked value, class_values.py): the class."""
    if type(value) is Checked:
        return value.wrapped_class() or value
    return value


def _type_name(kind: Any) -> str:
    if isinstance(kind, type):
        return kind.__name__
    if type(kind) is UserFunction:
        return kind.name
    return "value"


def _plain_value(value: Any) -> bool:
    return value is None or type(value) in (str, int, float, bool, complex)


def _same(a: Any, b: Any) -> bool:
    """Equal as plain data (text, numbers, lists and tuples of them), or the same object."""
    if a is b:
        return True
    if _plain_value(a) and _plain_value(b):
        return bool(a == b)
    if type(a) in (list, tuple) and type(b) is type(a) and len(a) == len(b) <= MOST_ARGUMENTS:
        return all(_plain_value(x) and _plain_value(y) and x == y for x, y in zip(a, b))
    return False


def appended_to(current: Any, dest: str) -> list[Any]:
    """What append and extend add to: a copy of the list there (None: a new one)."""
    if current is None:
        return []
    if type(current) is list:
        return current[:]
    raise TypeError(f"argument {dest}: appends to a list, not to a {type(current).__name__}")


def _dest(names: tuple[str, ...], positional: bool) -> str:
    if positional:
        return names[0]
    long = [n for n in names if n.startswith("--")]
    return (long[0] if long else names[0]).lstrip("-").replace("-", "_")


def check_plain(value: Any, what: str) -> None:
    """Text, numbers, None, or a few of them: what a choice or a parser's setting holds."""
    if value is None or type(value) in (str, int, float, bool, range):  # a range: its ints
        return
    if type(value) in (list, tuple) and len(value) <= MOST_ARGUMENTS:
        for item in value:
            if item is not None and type(item) not in (str, int, float, bool):
                raise TypeError(f"{what} takes text or numbers, not {type(item).__name__}")
        return
    raise TypeError(f"{what} takes text or numbers, not {type(value).__name__}")

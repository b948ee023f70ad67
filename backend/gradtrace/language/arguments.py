"""argparse for programs: the examples' `parser.add_argument("--lr", type=float,
default=1.0)` and `args = parser.parse_args()`, then `args.lr`.

A job has no command line, so `parse_args()` reads an empty one, as CPython does running
the file with no arguments: each argument gets its default (a text default converted by
its `type`, as argparse does). A notebook's `parse_args([...])` (or `args=[]`) parses the
list it is given: options with their values (`--lr 0.1`, `--lr=0.1`, `-b 64`, a long
option's unique prefix), flags, `nargs`, `choices` and positionals. A command line argparse
would refuse (a missing positional, an unknown option, a value its type rejects) is an
ArgumentError with argparse's message, where argparse would print it and exit. Help text
is kept and never written. Nothing of argparse itself is imported or run.
"""

from __future__ import annotations

import itertools
import re
from reprlib import recursive_repr
from typing import Any

from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.values import UserFunction

SUPPRESS = "==SUPPRESS=="
_MOST_ARGUMENTS = 256
_LONGEST_NAME = 256
_LONGEST_LINE = 100_000
_CHOICES_SHOWN = 50
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
_ACTIONS = frozenset(
    "store store_const store_true store_false append append_const count extend help version".split()
)
# Actions that take no value from a command line.
_FLAGS = ("store_true", "store_false", "store_const", "append_const", "count", "help", "version")
_ADD_OPTIONS = frozenset(
    "action nargs const default type choices required help metavar dest version".split()
)
_PARSER_OPTIONS = frozenset(
    """
prog usage description epilog parents formatter_class prefix_chars fromfile_prefix_chars
argument_default conflict_handler add_help allow_abbrev exit_on_error
""".split()
)


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


class _Argument:
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
        self.action = _class(options.get("action")) or "store"
        self.nargs = options.get("nargs")
        self.const = options.get("const")
        self.type = _class(options.get("type"))
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


def _class(value: Any) -> Any:
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
    if type(a) in (list, tuple) and type(b) is type(a) and len(a) == len(b) <= _MOST_ARGUMENTS:
        return all(_plain_value(x) and _plain_value(y) and x == y for x, y in zip(a, b))
    return False


def _items(current: Any, dest: str) -> list[Any]:
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


def _check_plain(value: Any, what: str) -> None:
    """Text, numbers, None, or a few of them: what a choice or a parser's setting holds."""
    if value is None or type(value) in (str, int, float, bool, range):  # a range: its ints
        return
    if type(value) in (list, tuple) and len(value) <= _MOST_ARGUMENTS:
        for item in value:
            if item is not None and type(item) not in (str, int, float, bool):
                raise TypeError(f"{what} takes text or numbers, not {type(item).__name__}")
        return
    raise TypeError(f"{what} takes text or numbers, not {type(value).__name__}")


class _Group:
    """add_argument_group() and add_mutually_exclusive_group(): arguments added to the
    parser, shown together in its help."""

    def __init__(self, parser: ArgumentParser, exclusive: bool, required: bool = False) -> None:
        self._parser = parser
        self._arguments: list[_Argument] = []
        self._required = required
        if exclusive:
            parser._exclusive.append(self)

    def add_argument(self, *names: Any, **options: Any) -> None:
        self._arguments.append(self._parser._add(names, options))

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Group:
        return self._parser.add_argument_group(*args, **kwargs)

    def add_mutually_exclusive_group(self, **kwargs: Any) -> _Group:
        return self._parser.add_mutually_exclusive_group(**kwargs)


class ArgumentParser:
    """A parser of a command line the job does not have (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        unknown = set(kwargs) - _PARSER_OPTIONS
        if unknown:
            raise TypeError(
                f"ArgumentParser.__init__() got an unexpected keyword argument {sorted(unknown)[0]!r}"
            )
        parents = kwargs.pop("parents", ())
        formatter = _class(kwargs.pop("formatter_class", HelpFormatter))
        if kwargs.get("prefix_chars", "-") != "-" or kwargs.get("fromfile_prefix_chars"):
            raise ForbiddenError("options start with '-' here, and a job reads no files")
        handler = kwargs.get("conflict_handler", "error")
        if handler not in ("error", "resolve") or type(handler) is not str:
            raise ValueError(f"invalid conflict_resolution value: {handler!r}")
        if not (isinstance(formatter, type) and issubclass(formatter, HelpFormatter)):
            raise TypeError("formatter_class takes one of argparse's help formatters")
        for value in (*args, *kwargs.values()):
            _check_plain(value, "ArgumentParser()")
        self.prog = kwargs.get("prog", args[0] if args else "main.py")
        self.description = kwargs.get("description")
        self.epilog = kwargs.get("epilog")
        self._allow_abbrev = kwargs.get("allow_abbrev", True)
        self._resolve = handler == "resolve"
        self._argument_default = kwargs.get("argument_default")
        self._arguments: list[_Argument] = []
        self._exclusive: list[_Group] = []
        self._defaults: dict[str, Any] = {}
        if kwargs.get("add_help", True):
            self._arguments.append(_Argument(("-h", "--help"), {"action": "help"}, False))
        if type(parents) not in (list, tuple):
            raise TypeError("parents takes a list of ArgumentParsers")
        for parent in parents:
            if type(parent) is not ArgumentParser:
                raise TypeError("parents takes a list of ArgumentParsers")
            self._arguments += [a for a in parent._arguments if a.action != "help"]
            self._exclusive += parent._exclusive
            self._defaults.update(parent._defaults)
            if len(self._arguments) > _MOST_ARGUMENTS:
                raise LimitError(f"a parser takes at most {_MOST_ARGUMENTS} arguments here")

    # -- building ------------------------------------------------------------------------

    def add_argument(self, *names: Any, **options: Any) -> None:
        self._add(names, options)

    def _add(self, names: tuple[Any, ...], options: dict[str, Any]) -> _Argument:
        unknown = set(options) - _ADD_OPTIONS
        if unknown:
            raise TypeError(
                f"add_argument() got an unexpected keyword argument {sorted(unknown)[0]!r}"
            )
        if len(self._arguments) >= _MOST_ARGUMENTS:
            raise LimitError(f"a parser takes at most {_MOST_ARGUMENTS} arguments here")
        if not names or any(type(n) is not str or not n for n in names) or len(names) > 8:
            raise TypeError("add_argument() takes the argument's names as text")
        if any(len(n) > _LONGEST_NAME for n in names):
            raise ValueError(f"an argument's name is at most {_LONGEST_NAME} characters here")
        positional = not names[0].startswith("-")
        if positional and len(names) > 1:
            raise ValueError("invalid option string: must start with a character '-'")
        if not positional and any(not n.startswith("-") for n in names):
            raise ValueError("invalid option string: must start with a character '-'")
        action = _class(options.get("action"))
        if not (
            action is None
            or (type(action) is str and action in _ACTIONS)
            or action is BooleanOptionalAction
        ):
            raise ValueError("unknown action: one of argparse's, named as text")
        nargs = options.get("nargs")
        if not (
            nargs is None
            or (type(nargs) is str and nargs in ("?", "*", "+"))
            or (type(nargs) is int and 0 <= nargs <= _MOST_ARGUMENTS)
        ):
            raise ValueError("invalid nargs value")
        if nargs == 0 and action in (None, "store", "append", "extend"):
            raise ValueError(
                "nargs for store actions must be != 0; if you have nothing to store, actions "
                "such as store true or store const may be more appropriate"
            )
        for key in ("dest", "help", "version"):
            value = options.get(key)
            if value is not None and type(value) is not str:
                raise TypeError(f"add_argument({key}=...) takes text")
        metavar = options.get("metavar")
        if metavar is not None and type(metavar) is not str:
            _check_plain(metavar, "add_argument(metavar=...)")
        if len(options.get("dest") or "") > _LONGEST_NAME:
            raise ValueError(f"an argument's name is at most {_LONGEST_NAME} characters here")
        _check_plain(options.get("choices"), "add_argument(choices=...)")
        _check_plain(options.get("const"), "add_argument(const=...)")
        if "required" in options and type(options["required"]) is not bool:
            raise TypeError("add_argument(required=...) takes True or False")
        if not positional:
            self._conflicts(names)
        argument = _Argument(names, options, positional, self._defaults, self._argument_default)
        self._arguments.append(argument)
        return argument

    def _conflicts(self, names: tuple[str, ...]) -> None:
        """An option named twice: refused, or (conflict_handler="resolve") the later wins."""
        for earlier in list(self._arguments):
            taken = [n for n in earlier.names if n in names]
            if not taken or earlier.positional:
                continue
            if not self._resolve:
                word = "string" if len(taken) == 1 else "strings"
                raise ArgumentError(
                    f"argument {earlier.shown}: conflicting option {word}: {', '.join(taken)}"
                )
            earlier.names = tuple(n for n in earlier.names if n not in names)
            if not earlier.names:
                self._arguments.remove(earlier)

    def add_argument_group(self, *args: Any, **kwargs: Any) -> _Group:
        for value in (*args, *kwargs.values()):
            _check_plain(value, "add_argument_group()")
        return _Group(self, exclusive=False)

    def add_mutually_exclusive_group(self, **kwargs: Any) -> _Group:
        required = kwargs.get("required", False)
        if type(required) is not bool or set(kwargs) - {"required"}:
            raise TypeError("add_mutually_exclusive_group() takes required=True or False")
        return _Group(self, exclusive=True, required=required)

    def set_defaults(self, **kwargs: Any) -> None:
        for argument in self._arguments:
            if argument.dest in kwargs:
                argument.default = kwargs[argument.dest]
        self._defaults.update(kwargs)

    def get_default(self, dest: Any) -> Any:
        if type(dest) is not str:
            raise TypeError("get_default() takes an argument's name")
        for argument in self._arguments:
            if argument.dest == dest:
                return argument.default
        return self._defaults.get(dest)

    # -- parsing -------------------------------------------------------------------------

    def parse_args(self, args: Any = None, namespace: Any = None) -> Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            raise ArgumentError(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def parse_known_args(
        self, args: Any = None, namespace: Any = None
    ) -> tuple[Namespace, list[str]]:
        if args is None:
            args = []  # the job's command line: none
        elif type(args) is str:  # argparse reads any iterable: text, letter by letter
            args = list(args[: 4 * _MOST_ARGUMENTS + 1])
        if type(args) not in (list, tuple) or any(type(a) is not str for a in args):
            raise TypeError("parse_args() takes a list of text, as a command line's words")
        if len(args) > 4 * _MOST_ARGUMENTS or sum(map(len, args)) > _LONGEST_LINE:
            raise LimitError(
                f"a command line of more than {4 * _MOST_ARGUMENTS:,} words or "
                f"{_LONGEST_LINE:,} characters is over the limit"
            )
        if namespace is None:
            namespace = Namespace()
        elif type(namespace) is not Namespace:
            raise TypeError("parse_args(namespace=...) takes an argparse.Namespace")
        values = namespace.__dict__
        for argument in self._arguments:
            if argument.action in ("help", "version") or argument.dest in values:
                continue
            default = argument.default
            if not (type(default) is str and default == SUPPRESS):
                values[argument.dest] = default
        for dest, value in self._defaults.items():
            values.setdefault(dest, value)
        extras = _Parse(self, values).run(list(args))
        # As argparse: a text default still there once the line is read goes through the
        # argument's type (not its choices).
        for argument in self._arguments:
            default = argument.default
            if (
                type(default) is str
                and argument.type is not None
                and default != SUPPRESS
                and values.get(argument.dest) is default
            ):
                values[argument.dest] = argument.typed(default)
        return namespace, extras

    def _option(self, word: str) -> tuple[_Argument | None, str | None, bool]:
        """The option a word names (and a value written into it: `--lr=0.1`), and whether
        it is `--no-flag` of a BooleanOptionalAction."""
        name, value = word, None
        if "=" in word:
            name, value = word.split("=", 1)
        options = [a for a in self._arguments if not a.positional]
        for argument in options:
            if name in argument.names:
                return argument, value, False
            if argument.action is BooleanOptionalAction and any(
                name == "--no-" + n[2:] for n in argument.names if n.startswith("--")
            ):
                return argument, value, True
        if self._allow_abbrev and name.startswith("--"):
            found = [a for a in options for n in a.names if n.startswith(name)]
            if len({id(a) for a in found}) == 1:
                return found[0], value, False
            if len(found) > 1:
                names = ", ".join(n for a in found for n in a.names if n.startswith(name))
                raise ArgumentError(f"ambiguous option: {name} could match {names}")
        return None, value, False


def _expected(argument: _Argument, inline: str | None) -> str:
    """argparse's words for a wrong count of values."""
    least, most = argument.takes()
    if most == 0:
        return f"ignored explicit argument {inline!r}"
    if argument.nargs is None:
        return "expected one argument"
    if argument.nargs == "?":
        return "expected at most one argument"
    if argument.nargs == "+":
        return "expected at least one argument"
    return f"expected {least} argument{'s' if least != 1 else ''}"


class _Parse:
    """One command line read into a namespace's values."""

    def __init__(self, parser: ArgumentParser, values: dict[str, Any]) -> None:
        self.parser = parser
        self.values = values
        self.seen: list[_Argument] = []

    def run(self, words: list[str]) -> list[str]:
        extras: list[str] = []
        loose: list[str] = []
        i = 0
        while i < len(words):
            word = words[i]
            if word == "--":  # the rest are positionals (each later "--" dropped, as 3.11 does)
                loose += [w for w in words[i + 1 :] if w != "--"]
                break
            if not self._is_option(word):
                loose.append(word)
                i += 1
                continue
            argument, inline, negated = self.parser._option(word)
            if argument is None and not word.startswith("--") and len(word) > 2:
                # Short options run together: `-vv` (flags), `-b64` (an option's value).
                argument, _, negated = self.parser._option(word[:2])
                if argument is not None and argument.takes()[1] == 0:
                    if len(words) >= 4 * _MOST_ARGUMENTS:
                        raise LimitError("a command line of more than 1,024 options")
                    words[i : i + 1] = [word[:2], "-" + word[2:]]
                    continue
                inline = word[2:]
            if argument is None:
                extras.append(word)
                i += 1
                continue
            i += 1
            least, most = argument.takes()
            given: list[str] = []
            if inline is not None:
                given = [inline]
            else:
                while (most is None or len(given) < most) and i < len(words):
                    if self._is_option(words[i]) or words[i] == "--":
                        break
                    given.append(words[i])
                    i += 1
            if len(given) < least or (most is not None and len(given) > most):
                raise ArgumentError(f"argument {argument.shown}: {_expected(argument, inline)}")
            self._store(argument, given, negated)
        self._positionals(loose, extras)
        self._check()
        return extras

    def _is_option(self, word: str) -> bool:
        return word.startswith("-") and word != "-" and not _NEGATIVE_NUMBER.match(word)

    def _store(self, argument: _Argument, given: list[str], negated: bool) -> None:
        self.seen.append(argument)
        action, dest = argument.action, argument.dest
        if action == "help":
            raise ForbiddenError("--help prints help and exits on a command line; a job has none")
        if action == "version":
            raise ForbiddenError("--version prints and exits on a command line; a job has none")
        if action is BooleanOptionalAction:
            self.values[dest] = not negated
        elif action == "store_true":
            self.values[dest] = True
        elif action == "store_false":
            self.values[dest] = False
        elif action == "store_const":
            self.values[dest] = argument.const
        elif action == "count":
            count = self.values.get(dest)
            if count is not None and type(count) is not int:
                raise TypeError(f"argument {dest}: counts from a whole number")
            self.values[dest] = (count or 0) + 1
        elif action == "append_const":
            self.values[dest] = [*_items(self.values.get(dest), dest), argument.const]
        else:
            converted = [argument.convert(text) for text in given]
            if argument.nargs is None:
                value: Any = converted[0]
            elif argument.nargs == "?":
                value = converted[0] if converted else argument.const
            else:
                value = converted
            if action == "append":
                value = [*_items(self.values.get(dest), dest), value]
            elif action == "extend":
                if type(value) not in (list, str):  # argparse iterates it
                    raise TypeError(f"argument {dest}: extends by a list of values")
                value = [*_items(self.values.get(dest), dest), *value]
            self.values[dest] = value

    def _positionals(self, loose: list[str], extras: list[str]) -> None:
        positionals = [a for a in self.parser._arguments if a.positional]
        for n, argument in enumerate(positionals):
            least, most = argument.takes()
            # Leave the positionals after this one their least.
            later = sum(a.takes()[0] for a in positionals[n + 1 :])
            room = max(len(loose) - later, 0)
            count = room if most is None else min(most, room)
            if count < least:
                break
            given, loose[:] = loose[:count], loose[count:]
            if given:
                self._store(argument, given, False)
            elif argument.nargs in ("?", "*"):  # none given: its default (for "*", or [])
                self.seen.append(argument)
                if argument.nargs == "*" and argument.default is None:
                    self.values[argument.dest] = []
        extras += loose

    def _check(self) -> None:
        missing = [a.shown for a in self.parser._arguments if a.required and a not in self.seen]
        if missing:
            raise ArgumentError(f"the following arguments are required: {', '.join(missing)}")
        for group in self.parser._exclusive:
            given = [a for a in group._arguments if a in self.seen]
            if len(given) > 1:
                raise ArgumentError(
                    f"argument {given[1].shown}: not allowed with argument {given[0].shown}"
                )
            if group._required and not given:
                names = " ".join(
                    a.names[0] if not a.positional else a.dest for a in group._arguments
                )
                raise ArgumentError(f"one of the arguments {names} is required")


MEMBERS: dict[str, Any] = {
    "ArgumentParser": ArgumentParser,
    "Namespace": Namespace,
    "ArgumentError": ArgumentError,
    "ArgumentTypeError": ArgumentTypeError,
    "BooleanOptionalAction": BooleanOptionalAction,
    "HelpFormatter": HelpFormatter,
    "ArgumentDefaultsHelpFormatter": ArgumentDefaultsHelpFormatter,
    "RawDescriptionHelpFormatter": RawDescriptionHelpFormatter,
    "RawTextHelpFormatter": RawTextHelpFormatter,
    "MetavarTypeHelpFormatter": MetavarTypeHelpFormatter,
    "SUPPRESS": SUPPRESS,
}
for _member in MEMBERS.values():
    if isinstance(_member, type):
        _member.__module__ = "argparse"
_Group.__module__ = "argparse"

#: What a program may read on a parser and on a group of its arguments.
PARSER_ATTRIBUTES = frozenset(
    """
add_argument add_argument_group add_mutually_exclusive_group set_defaults get_default
parse_args parse_known_args prog description epilog
""".split()
)
GROUP_ATTRIBUTES = frozenset("add_argument add_argument_group add_mutually_exclusive_group".split())

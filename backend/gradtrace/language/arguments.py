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

import re
from typing import Any

from gradtrace.language.argument_specs import (
    MOST_ARGUMENTS,
    Argument,
    ArgumentDefaultsHelpFormatter,
    ArgumentError,
    ArgumentTypeError,
    BooleanOptionalAction,
    HelpFormatter,
    MetavarTypeHelpFormatter,
    Namespace,
    RawDescriptionHelpFormatter,
    RawTextHelpFormatter,
    appended_to,
    check_plain,
    class_of,
)
from gradtrace.language.errors import ForbiddenError, LimitError

SUPPRESS = "==SUPPRESS=="
_LONGEST_NAME = 256
_LONGEST_LINE = 100_000
_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
_ACTIONS = frozenset(
    "store store_const store_true store_false append append_const count extend help version".split()
)
_ADD_OPTIONS = frozenset(
    "action nargs const default type choices required help metavar dest version".split()
)

_PARSER_OPTIONS = frozenset(
    """
prog usage description epilog parents formatter_class prefix_chars fromfile_prefix_chars
argument_default conflict_handler add_help allow_abbrev exit_on_error
""".split()
)


class _Group:
    """add_argument_group() and add_mutually_exclusive_group(): arguments added to the
    parser, shown together in its help."""

    def __init__(self, parser: ArgumentParser, exclusive: bool, required: bool = False) -> None:
        self._parser = parser
        self._arguments: list[Argument] = []
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
        formatter = class_of(kwargs.pop("formatter_class", HelpFormatter))
        if kwargs.get("prefix_chars", "-") != "-" or kwargs.get("fromfile_prefix_chars"):
            raise ForbiddenError("options start with '-' here, and a job reads no files")
        handler = kwargs.get("conflict_handler", "error")
        if handler not in ("error", "resolve") or type(handler) is not str:
            raise ValueError(f"invalid conflict_resolution value: {handler!r}")
        if not (isinstance(formatter, type) and issubclass(formatter, HelpFormatter)):
            raise TypeError("formatter_class takes one of argparse's help formatters")
        for value in (*args, *kwargs.values()):
            check_plain(value, "ArgumentParser()")
        self.prog = kwargs.get("prog", args[0] if args else "main.py")
        self.description = kwargs.get("description")
        self.epilog = kwargs.get("epilog")
        self._allow_abbrev = kwargs.get("allow_abbrev", True)
        self._resolve = handler == "resolve"
        self._argument_default = kwargs.get("argument_default")
        self._arguments: list[Argument] = []
        self._exclusive: list[_Group] = []
        self._defaults: dict[str, Any] = {}
        if kwargs.get("add_help", True):
            self._arguments.append(Argument(("-h", "--help"), {"action": "help"}, False))
        if type(parents) not in (list, tuple):
            raise TypeError("parents takes a list of ArgumentParsers")
        for parent in parents:
            if type(parent) is not ArgumentParser:
                raise TypeError("parents takes a list of ArgumentParsers")
            self._arguments += [a for a in parent._arguments if a.action != "help"]
            self._exclusive += parent._exclusive
            self._defaults.update(parent._defaults)
            if len(self._arguments) > MOST_ARGUMENTS:
                raise LimitError(f"a parser takes at most {MOST_ARGUMENTS} arguments here")

    # -- building ------------------------------------------------------------------------

    def add_argument(self, *names: Any, **options: Any) -> None:
        self._add(names, options)

    def _add(self, names: tuple[Any, ...], options: dict[str, Any]) -> Argument:
        unknown = set(options) - _ADD_OPTIONS
        if unknown:
            raise TypeError(
                f"add_argument() got an unexpected keyword argument {sorted(unknown)[0]!r}"
            )
        if len(self._arguments) >= MOST_ARGUMENTS:
            raise LimitError(f"a parser takes at most {MOST_ARGUMENTS} arguments here")
        if not names or any(type(n) is not str or not n for n in names) or len(names) > 8:
            raise TypeError("add_argument() takes the argument's names as text")
        if any(len(n) > _LONGEST_NAME for n in names):
            raise ValueError(f"an argument's name is at most {_LONGEST_NAME} characters here")
        positional = not names[0].startswith("-")
        if positional and len(names) > 1:
            raise ValueError("invalid option string: must start with a character '-'")
        if not positional and any(not n.startswith("-") for n in names):
            raise ValueError("invalid option string: must start with a character '-'")
        action = class_of(options.get("action"))
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
            or (type(nargs) is int and 0 <= nargs <= MOST_ARGUMENTS)
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
            check_plain(metavar, "add_argument(metavar=...)")
        if len(options.get("dest") or "") > _LONGEST_NAME:
            raise ValueError(f"an argument's name is at most {_LONGEST_NAME} characters here")
        check_plain(options.get("choices"), "add_argument(choices=...)")
        check_plain(options.get("const"), "add_argument(const=...)")
        if "required" in options and type(options["required"]) is not bool:
            raise TypeError("add_argument(required=...) takes True or False")
        if not positional:
            self._conflicts(names)
        argument = Argument(names, options, positional, self._defaults, self._argument_default)
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
            check_plain(value, "add_argument_group()")
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
            args = list(args[: 4 * MOST_ARGUMENTS + 1])
        if type(args) not in (list, tuple) or any(type(a) is not str for a in args):
            raise TypeError("parse_args() takes a list of text, as a command line's words")
        if len(args) > 4 * MOST_ARGUMENTS or sum(map(len, args)) > _LONGEST_LINE:
            raise LimitError(
                f"a command line of more than {4 * MOST_ARGUMENTS:,} words or "
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

    def _option(self, word: str) -> tuple[Argument | None, str | None, bool]:
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


def _expected(argument: Argument, inline: str | None) -> str:
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
        self.seen: list[Argument] = []

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
                    if len(words) >= 4 * MOST_ARGUMENTS:
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

    def _store(self, argument: Argument, given: list[str], negated: bool) -> None:
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
            self.values[dest] = [*appended_to(self.values.get(dest), dest), argument.const]
        else:
            converted = [argument.convert(text) for text in given]
            if argument.nargs is None:
                value: Any = converted[0]
            elif argument.nargs == "?":
                value = converted[0] if converted else argument.const
            else:
                value = converted
            if action == "append":
                value = [*appended_to(self.values.get(dest), dest), value]
            elif action == "extend":
                if type(value) not in (list, str):  # argparse iterates it
                    raise TypeError(f"argument {dest}: extends by a list of values")
                value = [*appended_to(self.values.get(dest), dest), *value]
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

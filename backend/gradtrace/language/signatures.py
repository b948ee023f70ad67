"""inspect for programs: `inspect.signature(f).parameters`, as nanoGPT's
`configure_optimizers` asks whether AdamW takes `fused`, and `inspect.isclass` and
`inspect.isfunction`.

A signature here is a copy: each parameter's name, kind and default, made from the
program's own function as the interpreter parsed it, or read by Python's inspect from a
torch or Python callable the program may call. A default that is not a plain value (an
object of torch's, a sentinel) is not handed out: reading it is refused. Nothing else of
inspect (frames, source, members) exists here.
"""

from __future__ import annotations

import enum
import inspect
from types import FunctionType, MethodType
from typing import Any

from gradtrace.language import callables
from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.tensor_text import scrub
from gradtrace.language.values import UserFunction

_PLAIN = (type(None), bool, int, float, complex, str)


class _Empty:
    """inspect.Parameter.empty: no default, no annotation."""

    def __repr__(self) -> str:
        return "<class 'inspect._empty'>"


_EMPTY = _Empty()


class _ParameterKind(enum.IntEnum):
    """A parameter's kind, ordered as Python's (`p.kind < Parameter.KEYWORD_ONLY`)."""

    POSITIONAL_ONLY = 0
    POSITIONAL_OR_KEYWORD = 1
    VAR_POSITIONAL = 2
    KEYWORD_ONLY = 3
    VAR_KEYWORD = 4

    def __str__(self) -> str:
        return self.name

    @property
    def description(self) -> str:
        return inspect._ParameterKind[self.name].description


_KINDS = tuple(kind.name for kind in _ParameterKind)
KIND_ATTRIBUTES = frozenset({"name", "value", "description"})


class Parameter:
    """One parameter: its name, its kind (compared with `Parameter.KEYWORD_ONLY` and the
    others), its default."""

    name: str
    kind: _ParameterKind
    annotation: Any
    _default: Any
    _own: bool
    empty = _EMPTY
    POSITIONAL_ONLY = _ParameterKind.POSITIONAL_ONLY
    POSITIONAL_OR_KEYWORD = _ParameterKind.POSITIONAL_OR_KEYWORD
    VAR_POSITIONAL = _ParameterKind.VAR_POSITIONAL
    KEYWORD_ONLY = _ParameterKind.KEYWORD_ONLY
    VAR_KEYWORD = _ParameterKind.VAR_KEYWORD

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("inspect.Parameter is made by inspect.signature() here")

    @classmethod
    def _made(cls, name: str, kind: str, default: Any = _EMPTY, own: bool = False) -> Parameter:
        made = object.__new__(cls)
        made.name = name
        made.kind = _ParameterKind[kind]
        made.annotation = _EMPTY
        made._default = default
        made._own = own  # a parameter of the program's function: its defaults are its own
        return made

    @property
    def default(self) -> Any:
        if not (self._own or _plain(self._default)):
            raise ForbiddenError(
                f"the default of parameter {self.name!r} is an object of torch's or Python's "
                "own, not handed out here"
            )
        return self._default

    def __repr__(self) -> str:
        return f'<Parameter "{self}">'

    def __str__(self) -> str:
        text = self.name
        if self.kind is _ParameterKind.VAR_POSITIONAL:
            text = "*" + text
        elif self.kind is _ParameterKind.VAR_KEYWORD:
            text = "**" + text
        if self._default is not _EMPTY:
            if self._own or _plain(self._default):
                callables.current().check_printable(self._default)
                text += f"={self._default!r}"
            else:
                text += "=…"
        return text


class Signature:
    """A callable's parameters by name, in order (`'fused' in sig.parameters`)."""

    parameters: dict[str, Parameter]
    return_annotation: Any
    _shown: str | None
    empty = _EMPTY

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("inspect.Signature is made by inspect.signature() here")

    @classmethod
    def _made(cls, parameters: list[Parameter], shown: str | None = None) -> Signature:
        made = object.__new__(cls)
        made.parameters = {p.name: p for p in parameters}
        made.return_annotation = _EMPTY
        made._shown = shown  # Python's own text, for a callable of torch's or Python's
        return made

    def __repr__(self) -> str:
        return f"<Signature {self}>"

    def __str__(self) -> str:
        if self._shown is not None:
            return self._shown
        parameters = list(self.parameters.values())  # a dict the program may have changed
        if any(type(p) is not Parameter for p in parameters):
            raise TypeError("a signature's parameters are inspect.Parameters")
        parts: list[str] = []
        starred = False
        kinds = [p.kind for p in parameters]
        for i, p in enumerate(parameters):
            if p.kind is _ParameterKind.KEYWORD_ONLY and not starred:
                parts.append("*")
            starred = starred or p.kind in (
                _ParameterKind.VAR_POSITIONAL,
                _ParameterKind.KEYWORD_ONLY,
            )
            parts.append(str(p))
            if p.kind is _ParameterKind.POSITIONAL_ONLY and (
                i + 1 == len(kinds) or kinds[i + 1] is not _ParameterKind.POSITIONAL_ONLY
            ):
                parts.append("/")
        return f"({', '.join(parts)})"


def _plain(value: Any) -> bool:
    if type(value) in _PLAIN or value is _EMPTY:
        return True
    return type(value) is tuple and len(value) <= 16 and all(type(v) in _PLAIN for v in value)


def signature(obj: Any) -> Signature:
    """inspect.signature(obj): of the program's function (a method of its class, bound
    or not), or of a callable of torch's or Python's it may call."""
    if type(obj) is UserFunction:
        return _of_program_function(obj)
    if isinstance(obj, type) and "gradtrace_members" in obj.__dict__:
        return _of_program_class(obj)
    if type(obj) is Checked:
        real: Any = obj.wrapped_class() or obj.fn
        if isinstance(real, type) and "gradtrace_members" in real.__dict__:
            return _of_program_class(real)  # the program's class as torch may call it
        bound = type(real) is MethodType
        own = _program_function(real.__func__ if bound else real)
        if own is not None:  # `M().m`, `M.m`: the program's function, less self if bound
            made = _of_program_function(own)
            if bound:
                made.parameters.pop(next(iter(made.parameters)), None)
            return made
        try:
            found = inspect.signature(real)
        except (ValueError, TypeError) as error:
            raise ValueError(f"no signature found for {obj!r}") from error
        return Signature._made(
            [
                Parameter._made(p.name, p.kind.name, _EMPTY if p.default is p.empty else p.default)
                for p in found.parameters.values()
            ],
            shown=scrub(str(found)),  # its annotations written out; no address shown
        )
    raise TypeError(
        "inspect.signature() takes a function of the program or one of torch's functions "
        f"or classes, not {type(obj).__name__}"
    )


def _of_program_function(fn: UserFunction) -> Signature:
    params = fn.params
    first_default = len(params.names) - len(params.defaults)
    out = [
        Parameter._made(
            name,
            "POSITIONAL_OR_KEYWORD",
            params.defaults[i - first_default] if i >= first_default else _EMPTY,
            own=True,
        )
        for i, name in enumerate(params.names)
    ]
    if params.vararg is not None:
        out.append(Parameter._made(params.vararg, "VAR_POSITIONAL", own=True))
    out += [
        Parameter._made(name, "KEYWORD_ONLY", params.kwonly_defaults.get(name, _EMPTY), own=True)
        for name in params.kwonly
    ]
    if params.kwarg is not None:
        out.append(Parameter._made(params.kwarg, "VAR_KEYWORD", own=True))
    return Signature._made(out)


def _of_program_class(cls: type) -> Signature:
    """A class of the program: its __init__'s parameters, less self (or none)."""
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        own = _program_function(init)
        if own is None:
            break  # torch's or Python's __init__, or one @dataclass made
        made = _of_program_function(own)
        made.parameters.pop(next(iter(made.parameters)), None)
        return made
    raise ValueError(f"no signature found for the class {cls.__name__} here")


def _program_function(fn: Any) -> UserFunction | None:
    """The program's function that one of its class's method wrappers calls (classes.py)."""
    if type(fn) is not FunctionType:
        return None
    found = fn.__dict__.get("gradtrace_function")
    return found if type(found) is UserFunction else None


def isclass(obj: Any) -> bool:
    return isinstance(obj, type) or (type(obj) is Checked and obj.wrapped_class() is not None)


def isfunction(obj: Any) -> bool:
    """A function: the program's (a method read off its class too), or a Python function
    of torch's (`F.relu`); not a builtin, a bound method or a class."""
    if type(obj) is UserFunction:
        return True
    if type(obj) is not Checked or obj.wrapped_class() is not None:
        return False
    return type(inspect.unwrap(obj.fn)) is FunctionType


MEMBERS: dict[str, Any] = {
    "signature": signature,
    "isclass": isclass,
    "isfunction": isfunction,
    "Parameter": Parameter,
    "Signature": Signature,
}
for _member in (signature, isclass, isfunction, Parameter, Signature):
    _member.__module__ = "inspect"

PARAMETER_CONSTANTS = frozenset(["empty", *_KINDS])
_ParameterKind.__module__ = "inspect"
PARAMETER_ATTRIBUTES = PARAMETER_CONSTANTS | {"name", "kind", "default", "annotation"}
SIGNATURE_ATTRIBUTES = frozenset({"parameters", "return_annotation", "empty"})

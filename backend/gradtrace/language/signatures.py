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

import inspect
from typing import Any

from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.values import UserFunction

_PLAIN = (type(None), bool, int, float, complex, str)


class _Empty:
    """inspect.Parameter.empty: no default, no annotation."""

    def __repr__(self) -> str:
        return "<class 'inspect._empty'>"


_EMPTY = _Empty()
_KINDS = (
    "POSITIONAL_ONLY",
    "POSITIONAL_OR_KEYWORD",
    "VAR_POSITIONAL",
    "KEYWORD_ONLY",
    "VAR_KEYWORD",
)


class Parameter:
    """One parameter: its name, its kind (compared with `Parameter.KEYWORD_ONLY` and the
    others), its default."""

    empty = _EMPTY
    POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD = _KINDS

    def __init__(self, name: str, kind: str, default: Any = _EMPTY, own: bool = False) -> None:
        self.name = name
        self.kind = kind
        self.annotation = _EMPTY
        self._default = default
        self._own = own  # a parameter of the program's function: its defaults are its own

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
        if self.kind == "VAR_POSITIONAL":
            text = "*" + text
        elif self.kind == "VAR_KEYWORD":
            text = "**" + text
        if self._default is not _EMPTY:
            shown = repr(self._default) if self._own or _plain(self._default) else "…"
            text += f"={shown}"
        return text


class Signature:
    """A callable's parameters by name, in order (`'fused' in sig.parameters`)."""

    empty = _EMPTY

    def __init__(self, parameters: list[Parameter]) -> None:
        self.parameters = {p.name: p for p in parameters}
        self.return_annotation = _EMPTY

    def __repr__(self) -> str:
        return f'<Signature "{self}">'

    def __str__(self) -> str:
        parts: list[str] = []
        starred = False
        for p in self.parameters.values():
            if p.kind == "KEYWORD_ONLY" and not starred:
                parts.append("*")
            starred = starred or p.kind in ("VAR_POSITIONAL", "KEYWORD_ONLY")
            parts.append(str(p))
            if p.kind == "POSITIONAL_ONLY" and _last_positional_only(self, p):
                parts.append("/")
        return f"({', '.join(parts)})"


def _last_positional_only(signature: Signature, parameter: Parameter) -> bool:
    kinds = [p.kind for p in signature.parameters.values()]
    index = list(signature.parameters.values()).index(parameter)
    return index + 1 == len(kinds) or kinds[index + 1] != "POSITIONAL_ONLY"


def _plain(value: Any) -> bool:
    if type(value) in _PLAIN or value is _EMPTY:
        return True
    return type(value) is tuple and len(value) <= 16 and all(type(v) in _PLAIN for v in value)


def signature(obj: Any) -> Signature:
    """inspect.signature(obj): of the program's function, or of a callable it may call."""
    if type(obj) is UserFunction:
        return _of_program_function(obj)
    if type(obj) is Checked:
        real = obj.wrapped_class() or obj.fn
        try:
            found = inspect.signature(real)
        except (ValueError, TypeError) as error:
            raise ValueError(f"no signature found for {obj!r}") from error
        return Signature(
            [
                Parameter(p.name, p.kind.name, _EMPTY if p.default is p.empty else p.default)
                for p in found.parameters.values()
            ]
        )
    raise TypeError(
        "inspect.signature() takes a function of the program or one of torch's functions "
        f"or classes, not {type(obj).__name__}"
    )


def _of_program_function(fn: UserFunction) -> Signature:
    params = fn.params
    first_default = len(params.names) - len(params.defaults)
    out = [
        Parameter(
            name,
            "POSITIONAL_OR_KEYWORD",
            params.defaults[i - first_default] if i >= first_default else _EMPTY,
            own=True,
        )
        for i, name in enumerate(params.names)
    ]
    if params.vararg is not None:
        out.append(Parameter(params.vararg, "VAR_POSITIONAL", own=True))
    out += [
        Parameter(name, "KEYWORD_ONLY", params.kwonly_defaults.get(name, _EMPTY), own=True)
        for name in params.kwonly
    ]
    if params.kwarg is not None:
        out.append(Parameter(params.kwarg, "VAR_KEYWORD", own=True))
    return Signature(out)


def isclass(obj: Any) -> bool:
    return isinstance(obj, type) or (type(obj) is Checked and obj.wrapped_class() is not None)


def isfunction(obj: Any) -> bool:
    """A function the program wrote (Python's own are builtins, as inspect says)."""
    return type(obj) is UserFunction


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
PARAMETER_ATTRIBUTES = PARAMETER_CONSTANTS | {"name", "kind", "default", "annotation"}
SIGNATURE_ATTRIBUTES = frozenset({"parameters", "return_annotation", "empty"})

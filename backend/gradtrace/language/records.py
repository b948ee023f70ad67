"""`@dataclass` for the program's plain classes.

Python's `dataclasses` writes each class's `__init__` as source text and runs it with
`exec`; here the methods are ordinary functions of ours that read the class's field list.
The field list comes from the class body's annotations (`x: int`, `y: float = 0.5`,
`z: list = field(default_factory=list)`), the fields of dataclass bases first, as Python
orders them. `__init__`, `__repr__` and `__eq__` are made unless the class writes its
own; `__post_init__` runs after `__init__`. `order=` and `frozen=` are refused by name.
"""

from __future__ import annotations

from collections.abc import Callable
from reprlib import recursive_repr
from typing import TYPE_CHECKING, Any

from gradtrace.language import broadcasts, callables
from gradtrace.language.errors import ForbiddenError

if TYPE_CHECKING:
    pass

NO_DEFAULT = object()
_MUTABLE = (list, dict, set)


class Field:
    """What `field(...)` returns, read once when the class is made."""

    __slots__ = ("default", "default_factory", "init", "repr")

    def __init__(self, default: Any, default_factory: Any, init: bool, repr: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr

    def __repr__(self) -> str:
        return "Field()"


def field(
    *, default: Any = NO_DEFAULT, default_factory: Any = None, init: bool = True, repr: bool = True
) -> Field:
    if default is not NO_DEFAULT and default_factory is not None:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr)


class Options:
    __slots__ = ("eq", "init", "repr")

    def __init__(self, init: bool = True, repr: bool = True, eq: bool = True) -> None:
        self.init, self.repr, self.eq = init, repr, eq


def dataclass(cls: Any = None, /, **options: Any) -> Any:
    """`@dataclass` and `@dataclass(...)`: the class statement reads what this returns."""
    for refused in ("order", "frozen", "slots", "kw_only", "match_args", "unsafe_hash"):
        if options.pop(refused, False):
            raise ForbiddenError(
                f"@dataclass({refused}=True) is not supported in gradtrace; leave it out"
            )
    made = Options(**options)
    if cls is not None:
        raise ForbiddenError("@dataclass applies to a class statement")
    return made


class FieldSpec:
    __slots__ = ("default", "factory", "init", "name", "repr")

    def __init__(self, name: str, value: Any) -> None:
        self.name = name
        self.init = self.repr = True
        self.factory: Any = None
        self.default: Any = NO_DEFAULT
        if isinstance(value, Field):
            self.default, self.factory = value.default, value.default_factory
            self.init, self.repr = value.init, value.repr
        elif value is not NO_DEFAULT:
            if isinstance(value, _MUTABLE):
                raise ValueError(
                    f"mutable default {type(value)} for field {name} is not allowed: "
                    "use default_factory"
                )
            self.default = value

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT and self.factory is None


def make_fields(bases: tuple[type, ...], own: list[tuple[str, Any]]) -> tuple[FieldSpec, ...]:
    """The fields in Python's order: the bases' (a redefinition keeps its place), then own."""
    fields: dict[str, FieldSpec] = {}
    for base in reversed(bases):
        for spec in base.__dict__.get("gradtrace_fields", ()):
            fields[spec.name] = spec
    for name, value in own:
        fields[name] = FieldSpec(name, value)
    seen_default = False
    for spec in fields.values():
        if not spec.init:
            continue
        if not spec.required:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument '{spec.name}' follows default argument")
    return tuple(fields.values())


def _check_self(obj: Any, method: str, fields: tuple[FieldSpec, ...], name: str) -> None:
    """A dunder @dataclass made, called by name (`D.__repr__(x)`): only on an instance of
    its class (on another object it would read that object's attributes by name). Its
    class is known by the fields the dunder was made for (the function itself, referred to
    from its own body, would be a reference cycle: garbage left for the collector)."""
    for klass in type(obj).__mro__:
        found = klass.__dict__.get(method)
        if getattr(found, "gradtrace_fields", None) is fields:
            return
    raise TypeError(f"descriptor '{method}' requires a '{name}' object")


def methods(
    name: str, fields: tuple[FieldSpec, ...], options: Options
) -> dict[str, Callable[..., Any]]:
    """The dunders `@dataclass` makes for `fields` (the caller keeps the program's own).
    They find the running interpreter rather than hold it: the class they go in is a
    cycle of its own, which would keep a held one alive until a collection."""
    made: dict[str, Callable[..., Any]] = {}
    in_init = [f for f in fields if f.init]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _check_self(self, "__init__", fields, name)
        if len(args) > len(in_init):
            raise TypeError(
                f"{name}.__init__() takes {len(in_init) + 1} positional arguments but "
                f"{len(args) + 1} were given"
            )
        for spec, value in zip(in_init, args):
            if spec.name in kwargs:
                raise TypeError(f"{name}.__init__() got multiple values for argument '{spec.name}'")
            kwargs[spec.name] = value
        unknown = [k for k in kwargs if k not in {f.name for f in in_init}]
        if unknown:
            raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{unknown[0]}'")
        missing = [f.name for f in in_init if f.required and f.name not in kwargs]
        if missing:
            raise TypeError(
                f"{name}.__init__() missing {len(missing)} required positional argument"
                f"{'s' if len(missing) > 1 else ''}: " + ", ".join(repr(m) for m in missing)
            )
        for spec in fields:
            if spec.name in kwargs:
                value = kwargs[spec.name]
            elif spec.factory is not None:
                value = spec.factory()
            elif spec.default is not NO_DEFAULT:
                value = spec.default
            else:
                continue
            interp = callables.current()
            interp.set_attr(self, spec.name, value, interp.here)
        post = getattr(type(self), "__post_init__", None)
        if post is not None:
            post(self)

    @recursive_repr()  # one holding itself: `D(a=...)`, as Python's dataclasses write it
    def __repr__(self: Any) -> str:
        _check_self(self, "__repr__", fields, name)
        parts = []
        for spec in fields:
            if spec.repr:
                value = getattr(self, spec.name)
                callables.current().check_printable(value)
                parts.append(f"{spec.name}={value!r}")
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def __eq__(self: Any, other: Any) -> Any:
        _check_self(self, "__eq__", fields, name)
        if other.__class__ is not self.__class__:
            return NotImplemented
        # Called from C too (`[p] == [q]`): the fields' tensors are checked here, as `==`
        # in the program would check them.
        limit = callables.current().limits.tensor_elements
        for spec in fields:
            pair = (getattr(self, spec.name), getattr(other, spec.name))
            broadcasts.check_compared("comparison", pair, limit)
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields)

    made_fns: tuple[Any, ...] = (__init__, __repr__, __eq__)
    for made_fn in made_fns:
        made_fn.gradtrace_fields = fields  # what _check_self reads
    if options.init:
        made["__init__"] = __init__
    if options.repr:
        made["__repr__"] = __repr__
    if options.eq:
        made["__eq__"] = __eq__
    return made

"""`class`, built as a real class behind the scenes.

A subclass of `torch.autograd.Function` becomes a real Function subclass (so torch makes
its `MyReLUBackward` node); a subclass of `nn.Module` becomes a real Module subclass (so
`parameters()`, `zero_grad()` and printing work as in torch); any other class (micrograd's
`Value`, a data iterator, an accumulator) is built on `ProgramObject`. Their methods stay
our closures: the real class holds small Python wrappers that hand each call back to the
evaluator, so the dunders it defines (`__add__`, `__getitem__`, `__iter__`...) run the
program's code when Python or torch calls them.
"""

from __future__ import annotations

import ast
import functools
import weakref
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
import torch.utils.data as tud
from torch import nn

from gradtrace.language import callables, records
from gradtrace.language.callables import Checked, Unbound
from gradtrace.language.class_names import BodyCode
from gradtrace.language.dataloaders import concatenation_refused
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.generators import GeneratorInMode, ProgramGenerator
from gradtrace.language.pymodules import capped_iterator, namedtuple_field
from gradtrace.language.values import UserFunction

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter
    from gradtrace.language.runtime import Scope, _FunctionContext

_OWNERS: weakref.WeakKeyDictionary[UserFunction, weakref.ref[type]] = weakref.WeakKeyDictionary()

_FUNCTION_STATICS = frozenset({"forward", "backward", "setup_context", "jvp", "vjp"})
# What torch keeps on every Module it makes (its hook, parameter and submodule tables,
# in its __dict__): never the program's, whatever the Module.
MODULE_INTERNALS = frozenset(nn.Module().__dict__)
# Names of gradtrace's own on a program's class (its members, a dataclass's fields).
RESERVED_PREFIX = "gradtrace_"


def owner_class(func: UserFunction) -> type | None:
    owner = _OWNERS.get(func)
    return owner() if owner is not None else None


class ProgramObject:
    """The base of a program's plain classes: marks their instances as the program's own
    (their attributes are theirs to read and set, `_`-names included)."""

    __slots__ = ()

    def __repr__(self) -> str:
        # As Python writes it, less the heap address (which says where others' data is).
        return f"<__main__.{type(self).__qualname__} object at 0x0>"


def _no_concatenation(self: Any, other: Any) -> Any:
    # torch's Dataset.__add__ makes a ConcatDataset (ChainDataset for an iterable one):
    # an object of torch's whose attributes, repr (with its address) and type gradtrace
    # does not admit. A program's own __add__ still wins.
    raise concatenation_refused()


class ProgramDataset(ProgramObject, tud.Dataset):  # type: ignore[type-arg]
    """What `class D(Dataset)` is built on: the program's plain class (its attributes and
    methods its own), and torch's Dataset for isinstance (`isinstance(d, Dataset)`, the
    DataLoader's checks). Of torch's class, only `__getitem__` remains, raising
    NotImplementedError when the program defines none (as torch's does)."""

    __slots__ = ()
    __add__ = _no_concatenation


class ProgramIterableDataset(ProgramObject, tud.IterableDataset):  # type: ignore[type-arg]
    """What `class D(IterableDataset)` is built on: as ProgramDataset; its `__iter__` is
    the program's (an abstract method until the program defines it, as in torch)."""

    __slots__ = ()
    __add__ = _no_concatenation


# torch's dataset classes a program may build on, and what each becomes.
DATASET_BASES: dict[type, type] = {
    tud.Dataset: ProgramDataset,
    tud.IterableDataset: ProgramIterableDataset,
}


def is_program_class(cls: type) -> bool:
    return "gradtrace_members" in cls.__dict__


def is_program_object(obj: object) -> bool:
    """An instance of one of the program's classes (plain, Module or Function)."""
    return any(is_program_class(klass) for klass in type(obj).__mro__)


# The classes type(x) and x.__class__ answer with: the builtin types, the program's own
# classes, torch's tensors and modules, exceptions (classes a program can already name).
# Never an internal class of ours.
_PLAIN_TYPES = frozenset(
    {int, float, complex, bool, str, list, tuple, dict, set, frozenset, range, slice, type(None)}
)


def class_visible(obj: object) -> bool:
    kind = type(obj)
    return (
        kind in _PLAIN_TYPES
        or is_program_object(obj)
        or issubclass(kind, (torch.Tensor, nn.Module, BaseException, np.ndarray))
        # numpy's scalars of numbers and booleans: np.str_, np.void or np.datetime64 would
        # make what the array functions refuse
        or (issubclass(kind, np.generic) and np.dtype(kind).kind in "biufc")
        or (kind.__module__ == "__main__" and namedtuple_field(obj, "_fields"))
    )


def build_class(
    interp: Interpreter,
    node: ast.ClassDef,
    bases: list[Any],
    code: BodyCode,
    scope: Scope,
    annotated: list[tuple[str, Any]],
    decorations: list[records.Options],
) -> type:
    """The class of a class statement: its methods made, then its body's statements run
    in their order (`annotated`: the annotated names with their values, evaluated)."""
    base = _bases(node, bases)
    is_function = issubclass(base[0], torch.autograd.Function)
    torch_base = issubclass(base[0], (torch.autograd.Function, nn.Module))
    members: dict[str, Any] = {
        "__module__": "__main__",
        "__qualname__": node.name,
    }
    functions: list[UserFunction] = []
    made: list[Any] = []
    for fdef, make, decorators in code.methods:
        fn = make(scope)
        functions.append(fn)
        made.append(_method_member(interp, fdef, fn, [d(scope) for d in decorators], is_function))
    names: set[str] = set()
    # What the body's own expressions read by name (class_names.py): its plain methods as
    # the functions they are, its attributes as the values they were given, so far.
    namespace: dict[str, Any] = {}
    outer, interp.class_namespace = interp.class_namespace, namespace
    try:
        for kind, index in code.order:
            if kind == "method":
                fdef, _, decorators = code.methods[index]
                accessor = code.accessors.get(index)
                member = made[index]
                if accessor is not None:  # the property above, given this function
                    member = _accessor(members.get(accessor[0]), accessor, member, fdef)
                members[fdef.name] = member
                if decorators or accessor is not None:
                    namespace.pop(fdef.name, None)  # a read of it is refused (class_names.py)
                else:
                    namespace[fdef.name] = functions[index]
                names.add(fdef.name)
            elif kind == "assign":
                targets, value = code.assignments[index]
                given = value(scope)
                for name in targets:
                    namespace[name] = given
                    members[name] = _member(given, name, f"{node.name}.{name}")
                    names.add(name)
            else:
                name, value = annotated[index]
                if value is records.NO_DEFAULT:
                    continue  # `x: int` binds nothing (a @dataclass field without a default)
                namespace[name] = value
                if isinstance(value, records.Field):
                    members.pop(name, None)  # the dataclass gives it its default
                else:
                    members[name] = value  # `x: int = 0` is a class attribute, as in Python
                names.add(name)
    finally:
        interp.class_namespace = outer
    if torch_base:
        # torch calls a Module's `forward` (and a Function's steps) with what the program
        # passes: `forward = nn.Linear` is called through the call path's checks.
        for name in names:
            members[name] = interp.class_checked(members[name])
    if decorations:
        if torch_base:
            raise ForbiddenError("@dataclass applies to your plain classes here", node)
        _make_dataclass(node.name, tuple(base), annotated, decorations[-1], members, names)
    for name in names:
        if name.startswith(RESERVED_PREFIX):
            raise ForbiddenError(f"`{name}` is gradtrace's own: name yours otherwise", node)
        if torch_base and name != "__init__" and _torch_private(base[0], name):
            raise ForbiddenError(
                f"`{name}` is torch's own in {base[0].__name__}: name yours otherwise", node
            )
        if name in _MODULE_STATE and issubclass(base[0], nn.Module):
            # `training` as the program's property: torch assigns it in __init__ and train(),
            # which would run the program's setter inside torch.
            raise ForbiddenError(
                f"`{name}` is torch's own on every Module: name yours otherwise", node
            )
    members["gradtrace_members"] = frozenset(names)
    cls = type(node.name, tuple(base), members)
    for fn in functions:
        # Weakly: the class holds its functions, so a strong value would keep each key
        # (and the class, and the job its methods ran in) alive for good.
        _OWNERS[fn] = weakref.ref(cls)
    interp.made_class(cls)
    return cls


def _accessor(prop: Any, accessor: tuple[str, str], method: Any, fdef: ast.FunctionDef) -> Any:
    """`@v.setter`: the property `v` made above, with `method` as its setter (getter,
    deleter), as Python's property.setter makes it."""
    name, which = accessor
    if not isinstance(prop, property):
        raise ForbiddenError(f"@{name}.{which} needs `{name}` to be a @property above it", fdef)
    return getattr(prop, which)(method)


def _method_member(
    interp: Interpreter,
    fdef: ast.FunctionDef,
    fn: UserFunction,
    values: list[Any],
    is_function: bool,
) -> Any:
    """What a class body's method is in the class: its decorators applied (or torch's
    staticmethod for a Function's steps), each checked."""
    kinds = [_decorator_kind(d, fdef) for d in values]
    if kinds and fdef.name.startswith("__") and fdef.name.endswith("__"):
        # Python calls a dunder itself: as a staticmethod, classmethod or property it
        # would hand C what the program chose (`iter(obj)` calling itertools.count).
        raise ForbiddenError(f"{fdef.name} may not be decorated: define it plainly", fdef)
    if "other" in kinds:
        if any(kind != "other" for kind in kinds) or (
            is_function and fdef.name in _FUNCTION_STATICS
        ):
            raise ForbiddenError(
                "a method decorated with @staticmethod, @classmethod, @property or "
                "@once_differentiable (or a Function's step) takes no other decorator",
                fdef,
            )
        return _decorated(interp, fn, values, fdef)
    if is_function and fdef.name in _FUNCTION_STATICS:
        step = _autograd_step(fn, fdef.name)
        if "once_differentiable" in kinds:  # torch's own wrapper: no double backward
            step = torch.autograd.function.once_differentiable(step)
        return staticmethod(step)
    if "staticmethod" in kinds:
        return staticmethod(_plain(fn))
    if "classmethod" in kinds:
        return classmethod(_method(fn))
    if "property" in kinds:
        return property(_method(fn))
    if fdef.name == "__iter__":
        return _iter_method(fn)
    return _method(fn)


def compile_base(
    interp: Interpreter, node: ast.expr, fc: _FunctionContext
) -> Callable[[Scope], Any]:
    """A base of a class statement. `object`, refused as a value, names Python's own base
    here (`class X(object):` is `class X:`), unless the program bound the name itself,
    which then means what it bound, as in CPython: the name is loaded as any other, and
    only the builtins' refusal of it is read as `object`."""
    load = interp.compile_expr(node, fc)
    if not (isinstance(node, ast.Name) and node.id == "object"):
        return load

    def base(scope: Scope) -> Any:
        try:
            return load(scope)
        except ForbiddenError:  # the name is not the program's: the builtin
            return object

    return base


def class_decorator(value: Any, node: ast.ClassDef) -> records.Options:
    """What a class statement's decorator asks for: only @dataclass / @dataclass(...)."""
    if type(value) is Checked and value.fn is records.dataclass:
        return records.Options()
    if isinstance(value, records.Options):
        return value
    raise ForbiddenError("a class may be decorated only with @dataclass", node)


def _make_dataclass(
    name: str,
    bases: tuple[type, ...],
    annotated: list[tuple[str, Any]],
    options: records.Options,
    members: dict[str, Any],
    names: set[str],
) -> None:
    fields = records.make_fields(bases, annotated)
    for field_name, _value in annotated:
        if field_name in members and not _is_field_default(members[field_name], annotated):
            # Python's dataclass would take the method or property as the field's default
            # (and hand it to __init__): not a value a program can be given here.
            raise ForbiddenError(
                f"the dataclass field `{field_name}` is also a method or property of {name}: "
                "name one of them otherwise"
            )
    for dunder, method in records.methods(name, fields, options).items():
        if dunder not in names:  # the class's own __init__/__repr__/__eq__ win
            members[dunder] = method
            names.add(dunder)
    if options.eq and "__hash__" not in names:
        members["__hash__"] = None  # as Python: equal by value, so not hashable
    for spec in fields:
        if spec.default is not records.NO_DEFAULT:
            members[spec.name] = spec.default
            names.add(spec.name)
    members["gradtrace_fields"] = fields


def _is_field_default(member: Any, annotated: list[tuple[str, Any]]) -> bool:
    """`member` is the value an annotated line of the body gave, not a method or property
    a later def made under the same name."""
    if any(member is value for _, value in annotated):
        return True
    return not (callable(member) or isinstance(member, property))


def _bases(node: ast.ClassDef, bases: list[Any]) -> list[type]:
    """The real bases: torch's Function or Module (or one of the program's classes built
    on them), or the program's own plain classes, or none (ProgramObject)."""
    if not bases:
        return [ProgramObject]
    if not all(isinstance(b, type) for b in bases):
        raise ForbiddenError("a class's bases must be classes", node)
    torch_bases = [b for b in bases if issubclass(b, (torch.autograd.Function, nn.Module))]
    if torch_bases:
        if len(bases) != 1:
            raise ForbiddenError(
                "a class built on torch.autograd.Function or nn.Module has that one base", node
            )
        return [bases[0]]
    own: list[type] = []
    for b in bases:
        if b is object:  # `class X(object)` is `class X` (the name resolved, not rebound)
            continue
        made = DATASET_BASES.get(b)
        if made is not None:
            own.append(made)
        elif issubclass(b, ProgramObject) and is_program_class(b):
            own.append(b)
        else:
            raise ForbiddenError(
                f"a class may build on your own classes, nn.Module, torch.autograd.Function "
                f"or torch.utils.data's Dataset and IterableDataset, not on {b.__name__}",
                node,
            )
    return own or [ProgramObject]


def _decorator_kind(decorator: Any, fdef: ast.FunctionDef) -> str:
    if type(decorator) is Checked:
        decorator = decorator.fn
    for kind in (staticmethod, classmethod, property):
        if decorator is kind:
            return str(kind.__name__)
    if decorator is torch.autograd.function.once_differentiable and fdef.name == "backward":
        return "once_differentiable"
    return "other"


def _decorated(
    interp: Interpreter, fn: UserFunction, decorators: list[Any], fdef: ast.FunctionDef
) -> Any:
    """A method with other decorators (`@torch.no_grad()`, `functools.lru_cache`, the
    program's own): each applied as to a function, through the one call path, and the
    result is what the class holds. A function (the program's, or one a decorator made,
    which the program holds checked) is bound to the instance as CPython binds it, and
    called through the call path; anything else is a class attribute, read as it is."""
    value: Any = fn
    for decorator in reversed(decorators):
        value = interp.apply_decorator(decorator, value, fdef)
    return _member(value, fn.name, fn.qualname)


def _member(value: Any, name: str, qualname: str) -> Any:
    """What a class holds for `value` placed on it: a function (the program's, one a
    decorator made, which the program holds checked, or a method read off one of its
    classes) is bound to the instance as CPython binds it, and called through the call
    path; anything else is read as it is (a builtin, a partial, a staticmethod object:
    CPython binds none of them either)."""
    if type(value) is UserFunction:
        return _method(value)
    if type(value) is not Checked or value.wrapped_class() is not None:
        return value
    real = value.fn
    if type(value.owner) is Unbound or isinstance(value.owner, type):
        # `B.m` read off the program's class: its method wrapper, a plain function
        return real if _is_method_wrapper(real) else value
    if value.owner is None and _binds(real):
        return _bound(value, name, qualname)
    return value


def _binds(real: Any) -> bool:
    """Whether CPython binds `real` as a method: what a decorator made of a function."""
    if type(real) is FunctionType:
        return real.__code__ is _TORCH_DECORATED
    return isinstance(real, _BINDING)


def _bound(checked: Any, name: str, qualname: str) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return checked(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = qualname
    return method


def set_class_member(interp: Interpreter, cls: type, name: str, value: Any) -> None:
    """`Class.name = value` or `setattr(Class, name, value)` on one of the program's classes
    (d2l's `add_to_class`): as if its body had defined `name`, a function a method, with
    the same refusals; readable from then on, and emptied with the class when the job ends."""
    if name.startswith("__") and name.endswith("__"):
        raise ForbiddenError(f"`{name}` is Python's own: a class's dunders are defined in its body")
    if name.startswith(RESERVED_PREFIX):
        raise ForbiddenError(f"`{name}` is gradtrace's own: name yours otherwise")
    if not user_class_member(cls, name) and _torch_private(cls, name):
        # What the class has from its bases and metaclass (torch's, ABCMeta's _abc_impl),
        # or what torch keeps on each Module (its hook and parameter tables).
        raise ForbiddenError(
            f"`{name}` is not the program's in {cls.__name__}: name yours otherwise"
        )
    if issubclass(cls, torch.autograd.Function) and name in _FUNCTION_STATICS:
        raise ForbiddenError(f"a Function's `{name}` is defined in its class body")
    if name in _MODULE_STATE and issubclass(cls, nn.Module):
        # As in a class body (build_class): torch assigns `training` in every Module.
        raise ForbiddenError(f"`{name}` is torch's own on every Module: name yours otherwise")
    member = _member(value, name, f"{cls.__qualname__}.{name}")
    if issubclass(cls, (torch.autograd.Function, nn.Module)):
        member = interp.class_checked(member)  # as build_class: torch may call it
    type.__setattr__(cls, name, member)
    members = cls.__dict__["gradtrace_members"]
    if name not in members:
        type.__setattr__(cls, "gradtrace_members", members | {name})


def user_class_member(kind: type, name: str) -> bool:
    """A method or class attribute the program itself wrote on one of its classes."""
    for klass in kind.__mro__:
        members = klass.__dict__.get("gradtrace_members")
        if members is not None and name in members:
            return True
    return False


# What torch keeps on every Module instance (`training` among the public names).
_MODULE_STATE = frozenset(vars(nn.Module()))


def _torch_private(cls: type, name: str) -> bool:
    """A `_` name a class has from torch or Python (its bases, its metaclass), or one torch
    keeps on every Module it makes."""
    if not name.startswith("_"):
        return False
    return hasattr(cls, name) or (issubclass(cls, nn.Module) and name in MODULE_INTERNALS)


# The wrappers find the running interpreter rather than hold it: torch keeps a Function's
# class from C++ (in each of its graph's nodes), where the cyclic GC cannot follow.


def _autograd_step(fn: UserFunction, name: str) -> Callable[..., Any]:
    """forward/backward of a user Function: run by torch, not recorded op by op.

    The Function is one node of the graph (`MyReLUBackward`), as torch sees it; what its
    own forward and backward compute inside is its business, as for torch's own ops.
    """

    def step(*args: Any, **kwargs: Any) -> Any:
        interp = callables.current()
        with interp.rec.suspended():
            return interp.call_user(fn, args, kwargs)

    step.__name__ = name
    step.__qualname__ = fn.qualname
    step.gradtrace_function = fn  # type: ignore[attr-defined]  # what inspect.signature reads
    return step


def _plain(fn: UserFunction) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return callables.current().call_user(fn, args, kwargs)

    call.__name__ = fn.name
    call.__qualname__ = fn.qualname
    call.gradtrace_function = fn  # type: ignore[attr-defined]  # what inspect.signature reads
    return call


def _method(fn: UserFunction) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return callables.current().call_user(fn, (self, *args), kwargs)

    method.__name__ = fn.name
    method.__qualname__ = fn.qualname
    method.gradtrace_function = fn  # type: ignore[attr-defined]  # what inspect.signature reads
    return method


def _is_method_wrapper(fn: Any) -> bool:
    """One of the functions a program class holds for its methods (made above and below)."""
    return type(fn) is FunctionType and fn.__code__ in _METHOD_CODES


def _iter_method(fn: UserFunction) -> Callable[..., Any]:
    """`__iter__`: what it hands back may be a C iterator (`itertools.repeat(0)`), which a C
    consumer (any(), list.extend, a deque with a maxlen) would read with no program code
    between items, past the alarm and every cap: it is read through the cap instead. The
    program's own iterators and generators run its code at each item, and stay as they are."""

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        items = callables.current().call_user(fn, (self, *args), kwargs)
        if isinstance(items, ProgramGenerator) or is_program_object(items):
            return items
        return capped_iterator(items)

    method.__name__ = fn.name
    method.__qualname__ = fn.qualname
    method.gradtrace_function = fn  # type: ignore[attr-defined]  # what inspect.signature reads
    return method


def _inner_code(factory: Callable[..., Any]) -> CodeType:
    (code,) = [c for c in factory.__code__.co_consts if isinstance(c, CodeType)]
    return code


# The functions a program class holds for its methods, known by their code.
_METHOD_CODES = frozenset(_inner_code(f) for f in (_method, _iter_method, _bound))
# What torch's context decorators make of a function (`@torch.no_grad()` on a method), and
# the other callables CPython binds as methods that a decorator may return.
_TORCH_DECORATED = torch.no_grad()(lambda: None).__code__
_BINDING = (GeneratorInMode, functools._lru_cache_wrapper)

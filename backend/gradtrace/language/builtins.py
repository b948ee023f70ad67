"""Python's builtins as a program sees them: the safe ones, each bounded by the limits."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from gradtrace.language import argument_specs
from gradtrace.language.broadcasts import check_combined, checked_key
from gradtrace.language.callables import Checked
from gradtrace.language.classes import class_visible
from gradtrace.language.dataloaders import refuse_concatenation
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.parse import DEFINABLE_DUNDERS, LOADED_DUNDERS, is_dunder
from gradtrace.language.pymodules import bounded_args, check_rows
from gradtrace.language.runtime import _hashed_items
from gradtrace.language.sizes import check_nesting
from gradtrace.language.tensor_text import scrub

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter

#: Names refused outright, with why.
FORBIDDEN_BUILTINS: dict[str, str] = {
    name: f"`{name}` is not available in gradtrace programs"
    for name in (
        "eval exec compile open globals locals vars dir type "
        "input breakpoint help memoryview bytearray bytes object exit "
        "quit aiter anext copyright credits license"
    ).split()
}
FORBIDDEN_BUILTINS["eval"] = "`eval` is not available: gradtrace never evaluates text as code"
FORBIDDEN_BUILTINS["exec"] = "`exec` is not available: gradtrace never executes text as code"
FORBIDDEN_BUILTINS["open"] = "`open` is not available: programs cannot read or write files"

_EXCEPTIONS: dict[str, type[BaseException]] = {
    cls.__name__: cls
    for cls in (
        Exception, ArithmeticError, AssertionError, AttributeError, IndexError, KeyError,
        LookupError, NameError, NotImplementedError, OverflowError, RuntimeError,
        StopIteration, TypeError, ValueError, ZeroDivisionError, UnboundLocalError,
        Warning, UserWarning, DeprecationWarning, PendingDeprecationWarning, FutureWarning,
        RuntimeWarning,
    )
}  # fmt: skip

_SPEC_RE = re.compile(r"(\d+)")

# The hashes that CPython derives from where an object lives (torch's Tensor.__hash__ is
# id(self)), and the containers that combine their items' hashes.
_OBJECT_HASH = object.__hash__
_TENSOR_HASH = torch.Tensor.__hash__
_TUPLE_HASH = tuple.__hash__
_FROZENSET_HASH = frozenset.__hash__


def check_format_spec(spec: str, limits_chars: int) -> None:
    """Refuse a format spec whose width or precision would build a huge string."""
    if "{" in spec or "*" in spec:
        raise ForbiddenError("nested or starred format widths are not supported")
    for digits in _SPEC_RE.findall(spec):
        if len(digits) > 7 or int(digits) > limits_chars:
            raise LimitError(
                f"a format width or precision of {digits} is over the string limit "
                f"({limits_chars:,} characters)"
            )


_PERCENT_RE = re.compile(r"%[-+ #0]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_percent_format(fmt: str, limits_chars: int) -> None:
    total = 0  # each field's width within the limit, and all of them together too
    for width, precision in _PERCENT_RE.findall(fmt):
        for part in (width, precision):
            if part == "*":
                raise ForbiddenError("'*' widths in % formatting are not supported")
            if part and (len(part) > 7 or int(part) > limits_chars):
                raise LimitError(f"a % format width of {part} is over the string limit")
            total += int(part) if part else 0
    if total > limits_chars:
        raise LimitError(f"the % format widths add up to {total:,}, over the string limit")


# An object hashed by identity (a tensor, a Module, a class, one of the program's
# objects...) is hashed by its address in CPython: its id() numbering stands in for it,
# in a tuple or frozenset too. Equal objects still hash equal (they are the same object);
# value-hashed ones (numbers, strings, devices) hash as Python hashes them. A module
# function, not a closure of make_builtins: a closure calling itself is a cycle.
def _hash_of(obj: Any, number: Callable[[Any], int]) -> int:
    kind = type(obj)
    method: Any = kind.__hash__
    if method is _OBJECT_HASH or method is _TENSOR_HASH:
        return number(obj)
    if kind is Checked:  # hashed by its address too (a class's wrapper by the class's)
        return number(obj.wrapped_class() or obj)
    if method is _TUPLE_HASH and isinstance(obj, tuple):
        return hash(tuple(_hash_of(item, number) for item in obj))
    if method is _FROZENSET_HASH and isinstance(obj, frozenset):
        return hash(frozenset(_hash_of(item, number) for item in obj))
    return hash(obj)


def make_builtins(job: Interpreter) -> dict[str, Any]:
    # Held weakly: a builtin a program handed to something that outlives the job (torch
    # holds hooks from C++) must not keep the job's interpreter, and with it every object
    # of the job, alive. Called after the job, one raises ReferenceError.
    interp = weakref.proxy(job)
    limits = job.limits

    def bounded(value: Any) -> Any:
        if isinstance(value, range) and len(value) > limits.loop_iterations:
            raise LimitError(
                f"a range of {len(value):,} items is over the loop limit "
                f"({limits.loop_iterations:,})"
            )
        return value

    def consuming(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for arg in args:
                bounded(arg)
            # An iterator of unknown length (itertools.count()...) is read at most so far.
            args = bounded_args(args)
            result = fn(*args, **kwargs)
            interp.check_size(result)
            return result

        wrapper.__name__ = fn.__name__
        wrapper.__qualname__ = fn.__name__
        return wrapper

    def combining(fn: Callable[..., Any]) -> Callable[..., Any]:
        """sum, max, min, sorted: C adds or compares the items, tensors broadcasting."""

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            limit = limits.tensor_elements
            if fn is sum and args:  # sum(items, start) or sum(items, start=...)
                start = (*args[1:], *kwargs.values())
                args = (check_combined("sum", args[0], start, limit), *args[1:])
                items = args[0] if isinstance(args[0], (list, tuple)) else ()  # not rows
                refuse_concatenation((*start, *items))
            elif len(args) == 1:  # max(items, key=...), sorted(items)
                args = (check_combined(fn.__name__, args[0], (), limit),)
            else:  # max(a, b): the arguments are the items
                check_combined(fn.__name__, args, (), limit)
            if kwargs.get("key") is not None:  # then C compares the keys
                kwargs = {**kwargs, "key": checked_key(kwargs["key"], fn.__name__, limit)}
            return fn(*args, **kwargs)

        wrapper.__name__ = fn.__name__
        wrapper.__qualname__ = fn.__name__
        return wrapper

    def hashing(fn: Callable[..., Any]) -> Callable[..., Any]:
        """set(), frozenset(), dict(): their items are hashed in C, so bounded first."""

        mapping = fn is dict  # dict() reads an object with .keys() as a mapping

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            checked = []
            for arg in bounded_args(args):
                bounded(arg)
                # Each item bounded before C hashes it; an iterator, or a program's
                # iterable or mapping, read first (runtime._hashed_items).
                arg = _hashed_items(arg, mapping)
                if type(arg) is list:
                    interp.check_size(arg)
                checked.append(arg)
            result = fn(*checked, **kwargs)
            interp.check_size(result)
            return result

        wrapper.__name__ = fn.__name__
        wrapper.__qualname__ = fn.__name__
        return wrapper

    def safe_pow(base: Any, exp: Any, mod: Any = None) -> Any:
        if mod is None:
            return interp.binary_pow(base, exp)
        return pow(base, exp, mod)

    def safe_format(value: Any, spec: str = "") -> str:
        check_format_spec(spec, limits.string_chars)
        interp.check_printable(value)
        return scrub(format(value, spec))

    def safe_repr(value: Any) -> str:
        interp.check_printable(value)
        return scrub(repr(value))

    def as_class(c: Any) -> type:
        # `list`, `nn.Linear`... as the program may hold them: the class (class_values.py).
        cls = c.wrapped_class() if type(c) is Checked else c
        if not isinstance(cls, type):
            raise TypeError("isinstance() arg 2 must be a type or tuple of types")
        return cls

    def safe_isinstance(obj: Any, cls: Any) -> bool:
        classes = cls if isinstance(cls, tuple) else (cls,)
        return isinstance(obj, tuple(as_class(c) for c in classes))

    def safe_issubclass(sub: Any, cls: Any) -> bool:
        classes = cls if isinstance(cls, tuple) else (cls,)
        sub_class = sub.wrapped_class() if type(sub) is Checked else sub
        if not isinstance(sub_class, type):
            raise TypeError("issubclass() arg 1 must be a class")
        return issubclass(sub_class, tuple(as_class(c) for c in classes))

    # id() numbers objects in the order the program asks about them: unique among live
    # objects and stable for each one's life, as Python's are, without telling the
    # program where anything lives in the worker's memory.
    ids: dict[int, int] = {}

    def safe_id(obj: Any) -> int:
        return ids.setdefault(id(obj), len(ids) + 1)

    def safe_chr(code: int) -> str:
        # A lone surrogate cannot be written as UTF-8: the page could not be sent.
        if isinstance(code, int) and 0xD800 <= code <= 0xDFFF:
            raise ForbiddenError(
                f"chr({code:#x}) is a lone surrogate, which cannot be shown; use another character"
            )
        return chr(code)

    def safe_hash(obj: Any) -> int:
        check_nesting(obj)  # a deeply nested tuple is hashed recursively, in C
        return _hash_of(obj, safe_id)

    def safe_type(obj: Any, *rest: Any) -> Any:
        # type(name, bases, dict) makes a class: `class` is the way to do that here.
        if rest:
            raise ForbiddenError("type() with three arguments is not available; write a class")
        kind = type(obj)
        if class_visible(obj):
            return interp.as_program_holds(kind)
        raise ForbiddenError(
            f"type() of a {kind.__name__} is not available; use isinstance(x, ...) to test it"
        )

    # getattr and friends take the attribute's name as text, so the parser never saw it:
    # the name is checked here as the parser checks a written one, then read through the
    # same path as `obj.name` (the allowlists are keyed on the object and the name).
    def attribute_name(name: Any, read: bool = False) -> str:
        if type(name) is not str:
            raise TypeError(f"attribute name must be string, not '{type(name).__name__}'")
        # __version__ is read only, as the parser admits it written; so are the special
        # methods a program may write (get_attr reads them where it wrote them).
        readable = ("__name__", "__qualname__", "__class__")
        if read and name != "__init__" and (name in LOADED_DUNDERS or name in DEFINABLE_DUNDERS):
            return name
        if is_dunder(name) and name not in readable:
            raise ForbiddenError(f"`.{name}` is Python's own, not a program's")
        return name

    def safe_getattr(obj: Any, name: Any, *default: Any) -> Any:
        if len(default) > 1:
            raise TypeError(f"getattr expected at most 3 arguments, got {2 + len(default)}")
        try:
            return interp.get_attr(obj, attribute_name(name, read=True), None)
        except AttributeError:
            if default:
                return default[0]
            raise

    def safe_hasattr(obj: Any, name: Any) -> bool:
        if type(name) is str and name != "__init__" and name in DEFINABLE_DUNDERS:
            # `hasattr(x, "__len__")`, duck typing: whether its type has one, answered
            # without handing anything out (reading it may be refused).
            cls = obj.wrapped_class() if type(obj) is Checked else None
            return hasattr(cls, name) if cls is not None else hasattr(type(obj), name)
        try:
            interp.get_attr(obj, attribute_name(name, read=True), None)
        except AttributeError:
            return False
        return True

    def safe_setattr(obj: Any, name: Any, value: Any) -> None:
        interp.set_attr(obj, attribute_name(name), value, None)

    def safe_delattr(obj: Any, name: Any) -> None:
        interp.del_attr(obj, attribute_name(name), None)

    def safe_vars(*args: Any) -> dict[Any, Any]:
        """vars(args) of argparse's Namespace, as scripts log their settings: a copy of
        its names and values (written to, Python's would change the namespace)."""
        if len(args) != 1:
            raise ForbiddenError("vars() of a scope is not available; name the variables")
        if type(args[0]) is not argument_specs.Namespace:
            raise ForbiddenError(
                f"vars() of a {type(args[0]).__name__} is not available; vars() takes "
                "argparse's Namespace here"
            )
        return dict(args[0].__dict__)

    def safe_iter(obj: Any) -> Any:
        return iter(check_rows(bounded(obj)))

    table: dict[str, Any] = {
        "range": range,
        "len": len,
        "abs": abs,
        "round": round,
        "int": int,
        "float": float,
        "complex": complex,
        "str": str,  # a type: isinstance(x, str) must work; str() of a bomb meets the alarm
        "bool": bool,
        "repr": safe_repr,
        "callable": callable,
        "chr": safe_chr,
        "ord": ord,
        "hex": hex,
        "bin": bin,
        "oct": oct,
        "divmod": divmod,
        "slice": slice,
        "next": next,
        "iter": safe_iter,
        "pow": safe_pow,
        "format": safe_format,
        "isinstance": safe_isinstance,
        "hash": safe_hash,
        "id": safe_id,
        "getattr": safe_getattr,
        "hasattr": safe_hasattr,
        "setattr": safe_setattr,
        "delattr": safe_delattr,
        "vars": safe_vars,
        "issubclass": safe_issubclass,
        "type": safe_type,
        "staticmethod": staticmethod,
        "classmethod": classmethod,
        "property": property,
        "enumerate": consuming(enumerate),
        "zip": consuming(zip),
        "map": consuming(map),
        "filter": consuming(filter),
        "reversed": consuming(reversed),
        "list": consuming(list),
        "tuple": consuming(tuple),
        "dict": hashing(dict),
        "set": hashing(set),
        "frozenset": hashing(frozenset),
        "sorted": consuming(combining(sorted)),
        "sum": consuming(combining(sum)),
        "min": consuming(combining(min)),
        "max": consuming(combining(max)),
        "any": consuming(any),
        "all": consuming(all),
        **_EXCEPTIONS,
    }

    def print_(*args: Any, **kwargs: Any) -> None:
        interp.builtin_print(*args, **kwargs)  # not the bound method: it holds the job

    print_.__name__ = print_.__qualname__ = "print"
    table["print"] = print_
    return table


BUILTIN_NAMES: frozenset[str] = frozenset(
    """
range len abs round int float complex str bool repr callable chr ord hex bin oct divmod
slice next iter pow format isinstance issubclass hash id getattr hasattr setattr delattr type staticmethod classmethod property enumerate zip map
filter reversed
list tuple dict set frozenset sorted sum min max any all print super
""".split()
) | frozenset(_EXCEPTIONS)

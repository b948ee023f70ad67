"""The `operator` module for programs: each function is the operator written out, run
through the interpreter's own path (`operator.add(x, y)` is checked and recorded as
`x + y` is), never Python's `operator` called on the program's say-so."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from gradtrace.language import broadcasts, callables, sizes
from gradtrace.language.errors import ForbiddenError

_BINARY = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "truediv": operator.truediv, "floordiv": operator.floordiv, "mod": operator.mod,
    "pow": operator.pow, "matmul": operator.matmul, "and_": operator.and_,
    "or_": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
    "rshift": operator.rshift,
}  # fmt: skip
_COMPARE = {
    "lt": operator.lt, "le": operator.le, "eq": operator.eq, "ne": operator.ne,
    "ge": operator.ge, "gt": operator.gt,
}  # fmt: skip
_UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": operator.neg, "pos": operator.pos, "abs": operator.abs, "not_": operator.not_,
    "truth": operator.truth, "invert": operator.invert,
}  # fmt: skip
# Containers a getter may index: what `x[i]` does on them runs no unchecked growth.
_INDEXABLE = (list, tuple, dict, str, range)


def _binary(name: str, op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def call(a: Any, b: Any) -> Any:
        interp = callables.current()
        if op is operator.pow:
            return (
                interp.binary_pow(a, b)
                if type(a) is type(b) is int
                else interp.binary(op, a, b, interp.here, name)
            )
        return interp.binary(op, a, b, interp.here, name)

    call.__name__ = call.__qualname__ = name
    return call


def _compare(name: str, op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def call(a: Any, b: Any) -> Any:
        # Deep containers are compared in C, path by path: bounded first, as `a == b` is.
        sizes.check_nesting(a)
        sizes.check_nesting(b)
        interp = callables.current()
        broadcasts.check_containers(name, a, b, False, interp.limits.tensor_elements)
        return interp.binary(op, a, b, interp.here, name)

    call.__name__ = call.__qualname__ = name
    return call


def _unary(name: str, op: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def call(a: Any) -> Any:
        interp = callables.current()
        result = op(a)
        interp.after_call(result, (a,), {}, interp.here, None)
        return result

    call.__name__ = call.__qualname__ = name
    return call


def _index(container: Any, key: Any) -> Any:
    if not isinstance(container, _INDEXABLE):
        raise ForbiddenError(
            f"operator.itemgetter/getitem index lists, tuples, dicts and strings, not a "
            f"{type(container).__name__}: write x[i]"
        )
    sizes.check_nesting(key)  # a dict hashes it in C, which recurses without a depth check
    return container[key]


def getitem(container: Any, key: Any) -> Any:
    return _index(container, key)


class itemgetter:
    __slots__ = ("_keys",)

    def __init__(self, *keys: Any) -> None:
        if not keys:
            raise TypeError("itemgetter expected 1 argument, got 0")
        self._keys = keys

    def __call__(self, obj: Any) -> Any:
        if len(self._keys) == 1:
            return _index(obj, self._keys[0])
        return tuple(_index(obj, k) for k in self._keys)

    def __repr__(self) -> str:
        return f"operator.itemgetter({', '.join(map(repr, self._keys))})"


class attrgetter:
    """`attrgetter("a.b")`: each name read as `obj.a.b` would be, through the allowlists."""

    __slots__ = ("_paths",)

    def __init__(self, *names: str) -> None:
        if not names or not all(type(n) is str for n in names):
            raise TypeError("attribute name must be a string")
        self._paths = [n.split(".") for n in names]

    def _get(self, obj: Any, path: list[str]) -> Any:
        interp = callables.current()
        for name in path:
            if name.startswith("__"):
                raise ForbiddenError(f"`.{name}` is Python's own, not a program's")
            obj = interp.get_attr(obj, name, interp.here)
        return obj

    def __call__(self, obj: Any) -> Any:
        if len(self._paths) == 1:
            return self._get(obj, self._paths[0])
        return tuple(self._get(obj, p) for p in self._paths)

    def __repr__(self) -> str:
        return f"operator.attrgetter({', '.join(repr('.'.join(p)) for p in self._paths)})"


OPERATOR: dict[str, Any] = {
    **{name: _binary(name, op) for name, op in _BINARY.items()},
    **{name: _compare(name, op) for name, op in _COMPARE.items()},
    **{name: _unary(name, op) for name, op in _UNARY.items()},
    "getitem": getitem,
    "itemgetter": itemgetter,
    "attrgetter": attrgetter,
}

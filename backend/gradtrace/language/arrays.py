"""A numpy subset for programs: array maths and random numbers, sized like tensors.

Programs hold real `numpy.ndarray`s (so `type(a)` and printing are numpy's own), made and
transformed only through the functions below. Each function is ours: it checks the size
of what numpy is about to make (by the rule of its kind: a shape, a broadcast, a product
of matrices, a concatenation) before numpy makes it, and refuses arrays of Python objects
(numpy would call the program's objects from C). No file, buffer, pickle or ctypes entry
point exists here, and `np.random` is seeded with the job's seed.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.np_printoptions import set_printoptions
from gradtrace.language.values import Namespace

# The per-tensor element limit applies to arrays too; the interpreter sets it per job.
_limit = [4_000_000]
# An array may hold as many bytes as that many float64s: a wide text dtype ("U100000000")
# makes few elements of many bytes each.
_BYTES_PER_ELEMENT = 8
# The bytes of one element of the array the current call makes (set around its rule).
_item_bytes = [_BYTES_PER_ELEMENT]
# Numbers, booleans and text: no Python objects (numpy would run them from C), no raw
# bytes, void, dates or records.
_KINDS = "biufcU"


def set_element_limit(limit: int) -> None:
    _limit[0] = limit


def _refuse(name: str, numel: int) -> LimitError:
    return LimitError(
        f"{name}() would make an array of {numel:,} elements; the limit is "
        f"{_limit[0]:,} elements per array"
    )


def _byte_limit() -> int:
    return _limit[0] * _BYTES_PER_ELEMENT


def check(name: str, numel: int) -> None:
    if numel > _limit[0]:
        raise _refuse(name, numel)
    if numel * _item_bytes[0] > _byte_limit():
        raise LimitError(
            f"{name}() would make an array of {numel:,} elements of {_item_bytes[0]:,} bytes "
            f"each; the limit is {_byte_limit() // 2**20} MiB per array"
        )


def allowed_dtype(name: str, dtype: Any) -> np.dtype[Any]:
    """The dtype numpy reads from `dtype`, if a program may make arrays of it."""
    found: np.dtype[Any] = np.dtype(dtype)
    if found.kind == "O" or found.hasobject:
        raise ForbiddenError(
            f"{name}() would make an array of Python objects, which numpy would run from C: "
            "keep such values in a list"
        )
    if found.fields is not None or found.subdtype is not None or found.kind not in _KINDS:
        raise ForbiddenError(
            f"{name}(): arrays of dtype {str(found)[:60]!r} are not available in gradtrace: "
            "numbers, booleans and text are"
        )
    return found


def _text_bytes(value: Any, depth: int = 0, seen: set[int] | None = None) -> int:
    """The bytes of one element of the text array numpy would make of `value`: 4 per
    character of its longest string (a list met again is read once)."""
    if isinstance(value, str):
        return 4 * len(value)
    if isinstance(value, np.ndarray):
        return value.itemsize if value.dtype.kind == "U" else 0
    widest = 0
    if isinstance(value, (list, tuple)) and depth < 64:
        seen = set() if seen is None else seen
        if id(value) in seen:
            return 0
        seen.add(id(value))
        for item in value:
            if isinstance(item, (str, list, tuple, np.ndarray)):
                widest = max(widest, _text_bytes(item, depth + 1, seen))
    return widest


def _dtype_argument(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if "dtype" in kwargs:
        return kwargs["dtype"]
    at = _DTYPE_AT.get(name)
    return args[at] if at is not None and len(args) > at else None


# numpy writes a number as text up to 64 characters wide (a complex; a float takes 32).
_NUMBER_TEXT_BYTES = 4 * 64


def _dtype_bytes(name: str, dtype: Any) -> int:
    """The bytes of one element of `dtype`; text of no given width ("U", `str`) is as wide
    as numpy may write a number."""
    found = allowed_dtype(name, dtype)
    if found.kind == "U" and found.itemsize == 0:
        return _NUMBER_TEXT_BYTES
    return found.itemsize


def _element_bytes(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
    """The widest element the call could make: of its dtype, or of the text it is given
    (with numbers beside text, numpy writes them as text too)."""
    size = _BYTES_PER_ELEMENT
    dtype = _dtype_argument(name, args, kwargs)
    if dtype is not None:
        size = max(size, _dtype_bytes(name, dtype))
    text = max((_text_bytes(value) for value in (*args, *kwargs.values())), default=0)
    if text:
        size = max(size, text, _NUMBER_TEXT_BYTES)
    return size


def check_array_method(
    owner: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """`a.astype(dtype)`, `a.sum(dtype=...)`: the dtype allowed, the result's bytes bounded
    before numpy makes it."""
    dtype = kwargs.get("dtype", args[0] if name == "astype" and args else None)
    if dtype is None:
        return
    itemsize = _dtype_bytes(name, dtype)
    count = owner.size if isinstance(owner, np.ndarray) else 1
    if count * itemsize > _byte_limit():
        raise LimitError(
            f"{name}() would make {count:,} elements of {itemsize:,} bytes each; the limit is "
            f"{_byte_limit() // 2**20} MiB per array"
        )


def shape_of(value: Any) -> tuple[int, ...]:
    if isinstance(value, (np.ndarray, torch.Tensor)):
        return tuple(value.shape)
    if type(value) is range:  # numpy reads a range as the list of its items
        return (len(value),)
    if isinstance(value, (list, tuple)):
        # Down the first items, as numpy reads a nested list's shape (np.shape would build
        # the array itself: a list of text, its elements at full width).
        shape: list[int] = []
        while isinstance(value, (list, tuple)) and len(shape) < 64:
            shape.append(len(value))
            if not value:
                break
            value = value[0]
        inner = isinstance(value, (np.ndarray, torch.Tensor))
        return (*shape, *shape_of(value)) if inner else tuple(shape)
    return ()


def numel(shape: Any) -> int:
    if shape is None:
        return 1
    if isinstance(shape, (int, np.integer)):
        return max(int(shape), 0)
    return math.prod(max(int(d), 0) for d in shape)


def result_array(name: str, value: Any) -> Any:
    """What numpy made, as the program may hold it: numbers, booleans or text, no bigger
    than an array may be."""
    if isinstance(value, np.ndarray):
        allowed_dtype(name, value.dtype)
        check(name, value.size)
        if value.nbytes > _byte_limit():
            raise LimitError(f"{name}() made an array of {value.nbytes:,} bytes, over the limit")
    elif isinstance(value, np.generic):
        allowed_dtype(name, value.dtype)
    return value


def check_broadcast(name: str, *operands: Any) -> None:
    shapes = [shape_of(v) for v in operands]
    try:
        shape = np.broadcast_shapes(*shapes)
    except ValueError:
        return  # numpy says why itself
    # Text joined by `+` is as wide as its parts together.
    text = sum(_text_bytes(v) for v in operands)
    outer = _item_bytes[0]  # a numpy function's own width, when its rule broadcasts
    _item_bytes[0] = max(outer, text)
    try:
        check(name, numel(shape))
    finally:
        _item_bytes[0] = outer


def check_matmul(name: str, a: Any, b: Any) -> None:
    sa, sb = shape_of(a), shape_of(b)
    rows = sa[-2] if len(sa) >= 2 else 1
    cols = sb[-1] if len(sb) >= 2 else 1
    try:
        batch = numel(np.broadcast_shapes(sa[:-2], sb[:-2]))
    except ValueError:
        return
    check(name, batch * rows * cols)


_INDEX_LEAVES = (int, bool, np.integer, np.bool_, type(None), type(Ellipsis))


def plain_index(index: Any) -> Any:
    """An array's index as numpy may read it: integers, slices of them, None, Ellipsis,
    arrays, tensors and lists of numbers. numpy would call a program object's __index__
    (or read it as a sequence) from C."""
    for part in index if type(index) is tuple else (index,):
        if isinstance(part, (*_INDEX_LEAVES, np.ndarray, torch.Tensor)):
            continue
        if type(part) is slice:
            if all(isinstance(b, _INDEX_LEAVES) for b in (part.start, part.stop, part.step)):
                continue
        elif type(part) in (list, tuple):
            _plain("indexing", part)
            continue
        raise ForbiddenError(
            f"an array is indexed by integers, slices, arrays or lists here, not by a "
            f"{type(part).__name__}"
        )
    return index


def operand(name: str, value: Any) -> Any:
    """`value` as numpy may read it (numbers, text, arrays, tensors, lists of them), sized."""
    return _plain(name, value)


def check_index(array: np.ndarray, index: Any) -> None:
    """`a[idx]` with integer arrays can repeat rows without end: bound it first (an
    overestimate: the index arrays' sizes times the dimensions they leave)."""
    parts = index if isinstance(index, tuple) else (index,)
    taken = 0
    count = 1
    for part in parts:
        if isinstance(part, (np.ndarray, list)) and np.asarray(part).dtype != bool:
            count *= max(numel(shape_of(part)), 1)
            taken += 1
        elif part is not None and part is not Ellipsis:
            taken += 1
    count *= numel(array.shape[taken:])
    check("indexing", count)


# -- the functions ------------------------------------------------------------------------

Rule = Callable[[str, tuple[Any, ...], dict[str, Any]], None]


# What numpy broadcasts: its arrays, and lists and tensors it reads as arrays.
_OPERANDS = (np.ndarray, torch.Tensor, list, tuple)


def same_rule(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Elementwise maths and reductions: no bigger than their inputs, once broadcast."""
    arrays = [a for a in (*args, *kwargs.values()) if isinstance(a, _OPERANDS)]
    if len(arrays) > 1:
        check_broadcast(name, *arrays)


def _shape_arg(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    check(name, numel(kwargs.get("shape", args[0] if args else 1)))


def shape_args_rule(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    check(name, numel(args))  # randn(2, 3)


def size_rule(position: int) -> Rule:
    """normal(loc, scale, size): `size`, or else the shape its parameters broadcast to."""

    def rule(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        size = kwargs.get("size", args[position] if len(args) > position else None)
        if size is None:
            same_rule(name, args, kwargs)
        else:
            check(name, numel(size))

    return rule


def population(a: Any) -> int | None:
    """choice's `a` when it is a count (an integer, or a 0-d array or tensor, which numpy
    reads as one), else None."""
    if isinstance(a, (int, np.integer)):
        return int(a)
    if isinstance(a, torch.Tensor):
        integral = not (a.is_floating_point() or a.is_complex())
        return int(a.item()) if a.ndim == 0 and integral else None
    if isinstance(a, (np.ndarray, np.generic)) and a.ndim == 0 and a.dtype.kind in "biu":
        return int(a)
    return None


def choice_rule(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """choice(n, k, replace=False) draws k of a permutation of range(n), made whole."""
    size_rule(1)(name, args, kwargs)
    n = population(args[0] if args else kwargs.get("a"))
    replace = args[2] if len(args) > 2 else kwargs.get("replace", True)
    if n is not None and not replace:
        check(name, n)


def _arange(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    start, stop, step = 0.0, None, 1.0
    if len(args) == 1:
        stop = args[0]
    elif len(args) >= 2:
        start, stop = args[0], args[1]
        step = args[2] if len(args) > 2 else kwargs.get("step", 1.0)
    if stop is None or not step:
        return
    check(name, max(math.ceil((float(stop) - float(start)) / float(step)), 0))


def _linspace(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    check(name, int(kwargs.get("num", args[2] if len(args) > 2 else 50)))


def _eye(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    n = int(args[0]) if args else 1
    m = args[1] if len(args) > 1 and args[1] is not None else kwargs.get("M") or n
    check(name, n * int(m))


def _matmul(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    if len(args) >= 2:
        check_matmul(name, args[0], args[1])


def _outer(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    check(name, math.prod(max(numel(shape_of(a)), 1) for a in args[:2]))


def _joined(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    parts = args[0] if args else ()
    if isinstance(parts, Sequence):
        check(name, sum(numel(shape_of(p)) for p in parts[: _limit[0]]))


def _meshgrid(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    # One array per input, each as big as all the inputs' sizes multiplied: multiplied
    # until past any limit (a product of thousands of sizes is a huge integer to build).
    total = len(args)
    for value in args:
        total *= max(numel(shape_of(value)), 1)
        if total > 2**62:
            break
    check(name, total)


def permutation_rule(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    x = args[0] if args else 0
    check(name, int(x) if isinstance(x, (int, np.integer)) else numel(shape_of(x)))


_ELEMENTWISE = """
abs absolute exp log log2 log10 log1p expm1 sqrt square sin cos tan tanh sinh cosh arcsin
arccos arctan arctan2 floor ceil round sign maximum minimum clip where add subtract multiply
divide power mod isnan isinf isfinite sum mean std var max min argmax argmin amax amin
median cumsum cumprod prod any all sort argsort unique transpose reshape ravel squeeze
expand_dims copy array_equal allclose isclose count_nonzero nonzero flip
""".split()

_RULES: dict[str, Rule] = {name: same_rule for name in _ELEMENTWISE}
_RULES.update(
    {
        "array": same_rule,
        "asarray": same_rule,
        "zeros": _shape_arg,
        "ones": _shape_arg,
        "empty": _shape_arg,
        "full": _shape_arg,
        "zeros_like": same_rule,
        "ones_like": same_rule,
        "full_like": same_rule,
        "arange": _arange,
        "linspace": _linspace,
        "eye": _eye,
        "identity": _eye,
        "dot": _matmul,
        "matmul": _matmul,
        "outer": _outer,
        "concatenate": _joined,
        "stack": _joined,
        "vstack": _joined,
        "hstack": _joined,
        "column_stack": _joined,
        "meshgrid": _meshgrid,
        "bincount": same_rule,  # its size is read from its values (_bincount)
    }
)
# Where a function takes its dtype positionally: np.zeros(3, "f4"), np.full(2, 0, "i8").
_DTYPE_AT = {
    "array": 1, "asarray": 1, "zeros": 1, "ones": 1, "empty": 1, "full": 2, "zeros_like": 1,
    "ones_like": 1, "full_like": 2, "identity": 1, "eye": 3, "arange": 3, "linspace": 5,
    "randint": 3, "integers": 3, "random": 1, "standard_normal": 1,
}  # fmt: skip


def _bincount(x: Any, weights: Any = None, minlength: Any = 0) -> Any:
    """np.bincount makes one count per value up to the largest: its size is read from the
    values, bounded before numpy allocates it. The values are read as integers and the
    weights as numbers here (numpy would cast Python objects by calling them from C)."""
    if not isinstance(x, _OPERANDS):
        raise TypeError(f"bincount() takes an array of integers, not {type(x).__name__}")
    values = np.asarray(x)
    if values.dtype.kind not in "biu":
        raise TypeError(
            f"Cannot cast array data from dtype({str(values.dtype)!r}) to dtype('int64') "
            "according to the rule 'safe'"
        )
    if weights is not None:
        if not isinstance(weights, _OPERANDS):
            raise TypeError(f"bincount() weights must be an array, not {type(weights).__name__}")
        weights = np.asarray(weights)
        if weights.dtype.kind not in "biuf":
            raise TypeError(f"bincount() weights of dtype {str(weights.dtype)!r}: numbers only")
    if type(minlength) is bool or not isinstance(minlength, (int, np.integer)):
        raise TypeError(f"'{type(minlength).__name__}' object cannot be interpreted as an integer")
    count = int(minlength)
    if values.size:
        count = max(count, int(values.max()) + 1)
    check("bincount", count)
    return np.bincount(values, weights, int(minlength))


# Memory no one wrote reads as zeros, as with torch.empty.
_REPLACED: dict[str, Callable[..., Any]] = {"empty": np.zeros, "bincount": _bincount}


# What numpy may be handed inside a list or tuple: it reads these without calling a
# program's code (an object of the program's that looks like a sequence, numpy would
# measure and read from C, after any check here).
_LEAVES = frozenset({bool, int, float, complex, str, type(None), np.ndarray, torch.Tensor})


def _plain(name: str, value: Any) -> Any:
    """`value` as numpy may read it: numbers, text, arrays and tensors, in lists and
    tuples of them, each operand's size bounded before numpy builds its array; a dtype
    the program holds as its checked class value, as the class itself."""
    if isinstance(value, (list, tuple, collections.deque)):
        if type(value) is collections.deque:  # np.mean(scores_window): read as a list
            value = list(value)
        check(name, numel(shape_of(value)))
        kinds = set(map(type, value))
        if not kinds <= _LEAVES:
            _plain_items(name, value, set())
    elif isinstance(value, (np.ndarray, torch.Tensor)):
        check(name, value.numel() if isinstance(value, torch.Tensor) else value.size)
    elif type(value) is Checked:
        cls = value.wrapped_class()
        if cls is None or not issubclass(cls, _DTYPE_CLASSES):
            raise _not_plain(name, value)
        return cls
    elif not _numpy_reads(value):
        raise _not_plain(name, value)
    return value


def _plain_items(name: str, value: list[Any] | tuple[Any, ...], seen: set[int]) -> None:
    """Each item of a list numpy will read, each nested list once (a list may hold the
    same list many times over: `x = [1.0, x, x]`)."""
    seen.add(id(value))
    for item in value:
        if isinstance(item, (list, tuple)):
            if id(item) not in seen:
                _plain_items(name, item, seen)
        elif type(item) not in _LEAVES and not isinstance(item, np.generic):
            raise _not_plain(name, item)


# The classes numpy reads as a dtype (`dtype=float`, `np.int32`).
_DTYPE_CLASSES = (np.generic, bool, int, float, complex, str)


def _numpy_reads(value: Any) -> bool:
    """A value numpy reads as it is: a number, text, a dtype, a range, a slice."""
    if isinstance(value, type):
        return issubclass(value, _DTYPE_CLASSES)
    return type(value) in _LEAVES or isinstance(
        value, (np.generic, np.dtype, range, slice, torch.dtype)
    )


def _not_plain(name: str, value: Any) -> ForbiddenError:
    shown = repr(value) if type(value) is Checked else f"a {type(value).__name__}"
    return ForbiddenError(
        f"{name}() takes numbers, text, arrays and tensors (and lists of them), not {shown}: "
        "numpy would read other objects by calling them from C; keep such values in a list"
    )


def checked(name: str, fn: Callable[..., Any], rule: Rule) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_plain(name, value) for value in args)
        if kwargs:
            kwargs = {key: _plain(name, value) for key, value in kwargs.items()}
        _item_bytes[0] = _element_bytes(name, args, kwargs)
        try:
            rule(name, args, kwargs)
            if _item_bytes[0] > _BYTES_PER_ELEMENT:  # text: the array made of the data given
                for value in args:
                    if isinstance(value, _OPERANDS):
                        check(name, numel(shape_of(value)))
        finally:
            _item_bytes[0] = _BYTES_PER_ELEMENT
        result = fn(*args, **kwargs)
        if type(result) in (tuple, list):  # meshgrid's arrays: each checked as one
            return type(result)(result_array(name, part) for part in result)
        return result_array(name, result)

    call.__name__ = call.__qualname__ = name
    call.__wrapped__ = fn  # type: ignore[attr-defined]  # inspect.signature reads numpy's
    return call


class ColumnJoin:
    """np.c_: `np.c_[a, b]` joins arrays as columns, as np.column_stack((a, b)) does
    (checked as it is). numpy's other uses of it (ranges written as slices, `np.c_['0', ...]`
    directives) are not taken."""

    __slots__ = ("_join",)

    def __init__(self, join: Callable[..., Any]) -> None:
        self._join = join

    def __getitem__(self, key: Any) -> Any:
        parts = key if type(key) is tuple else (key,)
        if any(isinstance(part, (slice, str)) for part in parts):
            raise ForbiddenError(
                "np.c_ with a range or a directive is not supported here: np.c_[a, b] of arrays"
            )
        return self._join(parts)

    def __repr__(self) -> str:
        return "<numpy.lib._index_tricks_impl.CClass object>"


def numpy_module(random: Namespace) -> dict[str, Namespace]:
    """numpy, with `random` (np_random.py) as its np.random."""
    members: dict[str, Any] = {
        name: checked(name, _REPLACED.get(name) or getattr(np, name), rule)
        for name, rule in _RULES.items()
    }
    members.update(
        {
            "random": random,
            "set_printoptions": set_printoptions,
            "get_printoptions": np.get_printoptions,
            "ndarray": np.ndarray,
            **{t: getattr(np, t) for t in _DTYPES},
            "pi": math.pi,
            "e": math.e,
            "inf": math.inf,
            "nan": math.nan,
            "newaxis": None,
            "c_": ColumnJoin(members["column_stack"]),
            "__version__": str(np.__version__),
        }
    )
    ns = Namespace("numpy", members, np)
    return {"numpy": ns, "numpy.random": random}


_DTYPES = "float16 float32 float64 int8 int16 int32 int64 uint8 bool_".split()

#: What a program may read of an array (each method's result is checked on return).
ARRAY_ATTRIBUTES = frozenset(
    """
shape dtype ndim size T astype reshape flatten ravel sum mean std var max min argmax
argmin tolist item copy transpose squeeze round clip cumsum any all argsort fill
""".split()
)

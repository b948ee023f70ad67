"""Python's own modules as programs see them: `random`, `itertools`, `functools`,
`collections`, each an allowlist of members, never the real module.

What they take and give is bounded like the rest: sizes are checked before the work
(`random.choices(k=...)`, `itertools.product`'s pools), iterators they make are read by
the evaluator's capped loops (`bounded_iterable`), and the callables a program hands them
(`functools.reduce(f, ...)`, `defaultdict(list)`) are the program's own or Checked, so
every call they make goes through the interpreter's one call path. Left out on purpose:
`operator` (its functions would run tensor ops past the evaluator's size checks, its
`attrgetter`/`methodcaller` past the attribute checks) and `functools.wraps` (it copies
attributes between functions).
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import random
import string
import time
import typing
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import torch

from gradtrace.identity import identity
from gradtrace.language import callables, random_instances, records
from gradtrace.language.errors import LimitError
from gradtrace.language.limits import Limits
from gradtrace.language.operators import OPERATOR
from gradtrace.language.values import Namespace

_LIMITS = Limits()
_ITEMS = _LIMITS.sequence_items
# Pools of `product` and friends are tuples in C; their combined size is bounded.
_POOL_ITEMS = 100_000
_REPEAT = 16
_FIELDS = 256


def _count(k: Any, what: str) -> None:
    if isinstance(k, int) and k > _ITEMS:
        raise LimitError(f"{what} of {k:,} items is over the limit ({_ITEMS:,})")


def _pools(args: tuple[Any, ...], repeat: int = 1) -> tuple[Any, ...]:
    """The pools, an iterator (a generator) read into the tuple C makes of it, at most
    one item past the limit."""
    if not isinstance(repeat, int) or repeat > _REPEAT:
        raise LimitError(f"repeat={repeat} is over the limit ({_REPEAT})")
    pools = tuple(
        pool if hasattr(pool, "__len__") else tuple(itertools.islice(pool, _POOL_ITEMS + 1))
        for pool in args
    )
    total = sum(len(pool) for pool in pools) * max(repeat, 1)
    if total > _POOL_ITEMS:
        raise LimitError(
            f"the inputs hold {total:,} items, over the limit ({_POOL_ITEMS:,}); "
            "pass lists, ranges or tuples of fewer items"
        )
    return pools


# ---------------------------------------------------------------------------- random
# The job's torch seed seeds these too (session.py), so a trace is reproducible.


def choices(
    population: Any, weights: Any = None, *, cum_weights: Any = None, k: int = 1
) -> list[Any]:
    _count(k, "random.choices")
    return random.choices(population, weights, cum_weights=cum_weights, k=k)


def sample(population: Any, k: int, *, counts: Any = None) -> list[Any]:
    _count(k, "random.sample")
    return random.sample(population, k, counts=counts)


def seed(a: Any = None) -> None:
    if not isinstance(a, (int, float, str, type(None))):
        raise TypeError("random.seed takes an int, a float, a string or None")
    if isinstance(a, int) and a.bit_length() > 4096:
        raise LimitError("a seed of more than 4,096 bits")
    random.seed(a)


_RANDOM: dict[str, Any] = {
    "seed": seed,
    "random": random.random,
    "uniform": random.uniform,
    "randint": random.randint,
    "randrange": random.randrange,
    "choice": random.choice,
    "choices": choices,
    "sample": sample,
    "shuffle": random.shuffle,
    "gauss": random.gauss,
    "normalvariate": random.normalvariate,
    "expovariate": random.expovariate,
    "betavariate": random.betavariate,
    "triangular": random.triangular,
}


#: random's functions compute in Python with what they are given (uniform(a, b) is
#: a + (b - a) * random(), choices adds up its weights): the calls whose tensors and
#: arrays are checked for the size they broadcast to. No dry run: it would draw.
RANDOM_FUNCTIONS: frozenset[int] = frozenset(identity(fn) for fn in _RANDOM.values())

# random.Random's methods call these, on the instance's state.
random_instances.MODULE_FUNCTIONS.update(_RANDOM)
_RANDOM["Random"] = random_instances.Random


# ---------------------------------------------------------------------------- itertools


def product(*iterables: Any, repeat: int = 1) -> Iterator[Any]:
    return itertools.product(*_pools(iterables, repeat), repeat=repeat)


def permutations(iterable: Any, r: int | None = None) -> Iterator[Any]:
    return itertools.permutations(_pools((iterable,))[0], r)


def combinations(iterable: Any, r: int) -> Iterator[Any]:
    return itertools.combinations(_pools((iterable,))[0], r)


def combinations_with_replacement(iterable: Any, r: int) -> Iterator[Any]:
    return itertools.combinations_with_replacement(_pools((iterable,))[0], r)


def repeat(obj: Any, times: int | None = None) -> Iterator[Any]:
    return itertools.repeat(obj) if times is None else itertools.repeat(obj, times)


_ITERTOOLS = {
    "chain": itertools.chain,
    "count": itertools.count,
    "cycle": itertools.cycle,
    "repeat": repeat,
    "islice": itertools.islice,
    "accumulate": itertools.accumulate,
    "groupby": itertools.groupby,
    "zip_longest": itertools.zip_longest,
    "starmap": itertools.starmap,
    "takewhile": itertools.takewhile,
    "dropwhile": itertools.dropwhile,
    "compress": itertools.compress,
    "filterfalse": itertools.filterfalse,
    "product": product,
    "permutations": permutations,
    "combinations": combinations,
    "combinations_with_replacement": combinations_with_replacement,
}
if hasattr(itertools, "pairwise"):
    _ITERTOOLS["pairwise"] = itertools.pairwise


# ---------------------------------------------------------------------------- functools


def lru_cache(maxsize: Any = 128, typed: bool = False) -> Any:
    if callable(maxsize):  # @lru_cache without arguments
        return functools.lru_cache(maxsize=128)(maxsize)
    if maxsize is None or (isinstance(maxsize, int) and maxsize > _ITEMS):
        maxsize = _ITEMS  # an unbounded cache, bounded by the limit on items
    return functools.lru_cache(maxsize=maxsize, typed=typed)


def cache(function: Any) -> Any:
    return functools.lru_cache(maxsize=_ITEMS)(function)


_FUNCTOOLS = {
    "partial": functools.partial,
    "reduce": functools.reduce,
    "lru_cache": lru_cache,
    "cache": cache,
    "cmp_to_key": functools.cmp_to_key,
}


# ---------------------------------------------------------------------------- collections


def namedtuple(
    typename: str, field_names: Any, *, rename: bool = False, defaults: Any = None
) -> type:
    fields = field_names.replace(",", " ").split() if isinstance(field_names, str) else field_names
    if len(fields) > _FIELDS or len(typename) > 64:
        raise LimitError(f"a namedtuple of at most {_FIELDS} fields and a name of 64 characters")
    # Python refuses field names that start with '_' (unless renamed, to _0, _1...).
    make: Any = collections.namedtuple  # mypy wants literals for rename and defaults
    made: type = make(typename, fields, rename=rename, defaults=defaults, module="__main__")
    return made


_COLLECTIONS = {
    "OrderedDict": collections.OrderedDict,
    "defaultdict": collections.defaultdict,
    "Counter": collections.Counter,
    "deque": collections.deque,
    "namedtuple": namedtuple,
}

# ---------------------------------------------------------------------------- string

_STRING = {
    name: getattr(string, name)
    for name in (
        "ascii_letters ascii_lowercase ascii_uppercase digits hexdigits octdigits "
        "punctuation whitespace printable"
    ).split()
}
_STRING["capwords"] = string.capwords


# ---------------------------------------------------------------------------- time
# Tutorials print how long an epoch took. The clocks read in steps of 1 ms: a finer one
# would time other jobs' work on the machine (cache and scheduler side channels). The
# counters (perf_counter, monotonic, process_time) count from the job's start, so they
# tell nothing of the worker's age or the CPU time of the jobs it ran before. A trace
# that prints times differs from run to run, as it would in CPython.

_TICK_NS = 1_000_000


def _ticks(ns: int) -> int:
    return ns - ns % _TICK_NS


def time_ns() -> int:
    return _ticks(time.time_ns())


def time_() -> float:
    return time_ns() / 1e9


def perf_counter_ns() -> int:
    return _ticks(time.monotonic_ns() - callables.current().started_ns)


def perf_counter() -> float:
    return perf_counter_ns() / 1e9


def process_time_ns() -> int:
    return _ticks(time.process_time_ns() - callables.current().cpu_started_ns)


def process_time() -> float:
    return process_time_ns() / 1e9


def sleep(secs: Any) -> None:
    """`time.sleep`, within the job's wall time: a sleep past it is the wall-time
    LimitError at once, not a worker held until the alarm."""
    if isinstance(secs, (np.integer, np.floating)):
        secs = secs.item()
    if not isinstance(secs, (int, float)):
        raise TypeError(f"'{type(secs).__name__}' object cannot be interpreted as an integer")
    if isinstance(secs, float) and math.isnan(secs):
        raise ValueError("Invalid value NaN (not a number)")
    if secs < 0:
        raise ValueError("sleep length must be non-negative")
    interp = callables.current()
    if secs > interp.deadline - time.monotonic():  # an int of any size compares
        raise LimitError(
            f"time.sleep would run past the program's time limit ({interp.limits.wall_time_s:g} s)"
        )
    time.sleep(float(secs))


_TIME: dict[str, Any] = {
    "time": time_,
    "time_ns": time_ns,
    "perf_counter": perf_counter,
    "perf_counter_ns": perf_counter_ns,
    "monotonic": perf_counter,
    "monotonic_ns": perf_counter_ns,
    "process_time": process_time,
    "process_time_ns": process_time_ns,
    "sleep": sleep,
}


# ---------------------------------------------------------------------------- typing
# For annotations (never evaluated in a `def`): the names, and subscripting them.

_TYPING: dict[str, Any] = {
    name: getattr(typing, name)
    for name in (
        "Any List Dict Tuple Set FrozenSet Optional Union Callable Iterable Iterator "
        "Sequence Mapping Type Generator TypeVar cast"
    ).split()
}

#: typing's special forms (List, Optional...) are callable only to say they cannot be
#: called: a program holds them as they are, to subscript them in annotations.
TYPING_FORMS: frozenset[int] = frozenset(
    id(v) for name, v in _TYPING.items() if name not in ("cast", "TypeVar")
)

#: Python's functions that iterate what they are given in C (itertools', reduce...).
ITERATING = frozenset(
    identity(fn) for fn in (*_ITERTOOLS.values(), functools.reduce, *_COLLECTIONS.values())
)

MODULE_MEMBERS: dict[str, dict[str, Any]] = {
    "random": _RANDOM,
    "itertools": _ITERTOOLS,
    "functools": _FUNCTOOLS,
    "collections": _COLLECTIONS,
    "string": _STRING,
    "typing": _TYPING,
    "operator": OPERATOR,
    "dataclasses": {"dataclass": records.dataclass, "field": records.field},
    "time": _TIME,
}


def python_modules() -> dict[str, Namespace]:
    """The stand-ins, by import name (`module` None: the real module is never reached)."""
    return {name: Namespace(name, dict(members), None) for name, members in MODULE_MEMBERS.items()}


# Attributes a program may read on what these make (exact types).
_DICT = "clear copy get items keys pop popitem setdefault update values"
PLAIN_ATTRIBUTES: dict[type, frozenset[str]] = {
    collections.OrderedDict: frozenset(f"{_DICT} fromkeys move_to_end".split()),
    collections.defaultdict: frozenset(f"{_DICT} fromkeys default_factory".split()),
    collections.Counter: frozenset(f"{_DICT} most_common elements subtract total".split()),
    collections.deque: frozenset(
        "append appendleft clear copy count extend extendleft index insert maxlen pop "
        "popleft remove reverse rotate".split()
    ),
}


def namedtuple_field(obj: object, name: str) -> bool:
    """A field of a namedtuple the program made (or `_fields`, `_asdict`, `_replace`)."""
    kind = type(obj)
    fields = getattr(kind, "_fields", None) if isinstance(obj, tuple) else None
    if not isinstance(fields, tuple) or kind.__module__ != "__main__":
        return False
    return name in fields or name in ("_asdict", "_replace", "_fields", "count", "index")


class _Capped:
    """An iterator read at most `limit` items far: a C function consuming it (sum, list,
    a Counter) stops with a LimitError instead of running unbounded."""

    __slots__ = ("_it", "_left")

    def __init__(self, it: Iterator[Any], limit: int) -> None:
        self._it = it
        self._left = limit

    def __iter__(self) -> _Capped:
        return self

    def __next__(self) -> Any:
        item = next(self._it)  # one that ends at the limit is within it
        if self._left <= 0:
            raise LimitError(f"an iterator yielded more than {_ITEMS:,} items")
        self._left -= 1
        return item


_SIZED = (list, tuple, dict, set, frozenset, str, bytes, range)
# Iterating a tensor (torch's Tensor.__iter__) unbinds all its rows at once, in C: a
# tensor object per row (some 700 bytes each), made before the first is read. A C
# consumer (sum, sorted, list.extend, itertools) then runs past every alarm.
_ROWS = _LIMITS.loop_iterations


def check_rows(value: Any) -> Any:
    """`value`, unless it is a tensor of more rows than a loop may take."""
    if isinstance(value, torch.Tensor) and value.dim() > 0 and value.shape[0] > _ROWS:
        raise LimitError(
            f"iterating a tensor of {value.shape[0]:,} rows makes a tensor per row; the "
            f"limit is {_ROWS:,}: use the tensor's own methods (t.sum(), t.max(), t.tolist())"
        )
    return value


def bounded_iterable(value: Any) -> Any:
    """`value`, or a capped view of it if it is an iterator of unknown length."""
    if isinstance(value, _SIZED) or not isinstance(value, Iterator):
        return check_rows(value)
    return _Capped(value, _ITEMS)


def capped_iterator(value: Any) -> Any:
    """An iterator (a C one, that a C consumer reads with no program code between items)
    read through the cap; anything else as it is (Python then refuses what is not an
    iterator, as it would have)."""
    if isinstance(value, Iterator) and not isinstance(value, _Capped):
        return _Capped(value, _ITEMS)
    return value


def bounded_args(args: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(bounded_iterable(a) for a in args)

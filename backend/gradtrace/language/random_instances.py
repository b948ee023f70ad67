"""`random.Random(seed)`: a generator of its own, as data-making code keeps one
(`rng = random.Random(0)`, `rng.shuffle(items)`, `rng.random()`).

Each method is the `random` module's function of the same name, called through the
interpreter's one call path (the same checks, keyed on that function), with the module's
generator set to this one's state for the call and put back after: the numbers are the
ones CPython's Random(seed) gives. A Random made without a seed would read the OS's
entropy; here it is seeded from the job's seed and a count, so a trace comes out the same
on every run.
"""

from __future__ import annotations

import random
from typing import Any

from gradtrace.language import callables
from gradtrace.language.seeds import unseeded_entropy

_METHODS = """
random uniform randint randrange choice choices sample shuffle gauss normalvariate
expovariate betavariate triangular
""".split()


class Random:
    """A generator with a state of its own (see the module's docstring)."""

    def __init__(self, x: Any = None) -> None:
        self._state = _seeded(x)

    def seed(self, a: Any = None) -> None:
        self._state = _seeded(a)

    def getstate(self) -> tuple[Any, ...]:
        return self._state

    def setstate(self, state: Any) -> None:
        outer = random.getstate()
        try:
            random.setstate(_plain_state(state))  # Python checks its shape
            self._state = random.getstate()
        finally:
            random.setstate(outer)

    def _drawing(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        function = MODULE_FUNCTIONS[name]
        outer = random.getstate()
        random.setstate(self._state)
        try:
            return callables.current().invoke(function, args, kwargs, None, None, name)
        finally:
            self._state = random.getstate()
            random.setstate(outer)


def _method(name: str) -> Any:
    def method(self: Random, *args: Any, **kwargs: Any) -> Any:
        return self._drawing(name, args, kwargs)

    method.__name__ = name
    method.__qualname__ = f"Random.{name}"
    return method


for _name in _METHODS:
    setattr(Random, _name, _method(_name))


def _seeded(a: Any) -> tuple[Any, ...]:
    """The state random.seed(a) gives, or (no seed) one from the job's seed and a count."""
    if a is None:
        entropy = unseeded_entropy()
        a = entropy[0] * 1_000_003 + entropy[1]
    outer = random.getstate()
    try:
        MODULE_FUNCTIONS["seed"](a)  # its checks: an int, float, text or None, bounded
        return random.getstate()
    finally:
        random.setstate(outer)


def _plain_state(state: Any) -> tuple[Any, ...]:
    """A state as getstate() gives it: (3, 625 ints, None or a float), nothing else."""
    if (
        type(state) is tuple
        and len(state) == 3
        and type(state[0]) is int
        and type(state[1]) is tuple
        and len(state[1]) == 625
        and all(type(v) is int for v in state[1])
        and (state[2] is None or type(state[2]) is float)
    ):
        return state
    raise TypeError("setstate() takes a state that getstate() gave")


#: The module's functions (pymodules.py fills this in, to avoid an import cycle).
MODULE_FUNCTIONS: dict[str, Any] = {}

Random.__module__ = "random"
ATTRIBUTES = frozenset([*_METHODS, "seed", "getstate", "setstate"])

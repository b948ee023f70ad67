"""math.factorial, math.comb and math.perm for programs: the size of the integer each
would make is read from lgamma first, so that C never spends seconds building one past
the integer limit (factorial(10**6) has 18 million bits)."""

from __future__ import annotations

import math
from typing import Any

from gradtrace.language import callables
from gradtrace.language.errors import LimitError


def _bits_allowed(name: str, log_value: float) -> None:
    bits = callables.current().limits.int_bits
    if log_value / math.log(2) > bits:
        raise LimitError(f"math.{name}() would make an integer of more than {bits:,} bits")


def _count(negative: str, value: Any) -> int:
    """`value` as an integer count; `negative` is CPython's message when it is below 0."""
    if type(value) is not int and type(value) is not bool:
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    if value < 0:
        raise ValueError(negative)
    return int(value)


def factorial(n: Any) -> int:
    """n! (math.factorial)."""
    n = _count("factorial() not defined for negative values", n)
    _bits_allowed("factorial", math.lgamma(n + 1))
    return math.factorial(n)


def comb(n: Any, k: Any) -> int:
    """The ways to choose k of n items, without order (math.comb)."""
    n = _count("n must be a non-negative integer", n)
    k = _count("k must be a non-negative integer", k)
    if k <= n:
        _bits_allowed("comb", math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1))
    return math.comb(n, k)


def perm(n: Any, k: Any = None) -> int:
    """The ways to choose k of n items, in order (math.perm; k = n by default)."""
    n = _count("n must be a non-negative integer", n)
    k = n if k is None else _count("k must be a non-negative integer", k)
    if k <= n:
        _bits_allowed("perm", math.lgamma(n + 1) - math.lgamma(n - k + 1))
    return math.perm(n, k)


def lcm(*integers: Any) -> int:
    """The least common multiple (math.lcm): it can have as many bits as its arguments
    together, bounded before C multiplies them."""
    for value in integers:
        if type(value) is not int and type(value) is not bool:
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    bits = callables.current().limits.int_bits
    if sum(abs(int(value)).bit_length() for value in integers) > bits:
        raise LimitError(f"math.lcm() could make an integer of more than {bits:,} bits")
    return math.lcm(*integers)


for _function in (factorial, comb, perm, lcm):
    _function.__module__ = "math"

MEMBERS = {"factorial": factorial, "comb": comb, "perm": perm, "lcm": lcm}

"""numpy's random numbers for programs: the np.random functions, on the global state the
job seeds, and the generators a program makes, `np.random.default_rng(seed)` and the
legacy `np.random.RandomState(seed)`.

A generator reaches the program as a module-like stand-in (a Namespace) whose members are
numpy's own methods bound to the program's generator, each sized before numpy draws, as
the np.random functions are. numpy's object itself never reaches the program: not its bit
generator's state, not its other methods.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradtrace.language.arrays import (
    Rule,
    check,
    checked,
    choice_rule,
    numel,
    permutation_rule,
    population,
    same_rule,
    shape_args_rule,
    shape_of,
    size_rule,
)
from gradtrace.language.seeds import unseeded_entropy
from gradtrace.language.values import Namespace

# The np.random functions, which are also the legacy RandomState's methods.
RANDOM_RULES: dict[str, Rule] = {
    "rand": shape_args_rule,
    "randn": shape_args_rule,
    "random": size_rule(0),
    "random_sample": size_rule(0),
    "standard_normal": size_rule(0),
    "randint": size_rule(2),
    "normal": size_rule(2),
    "uniform": size_rule(2),
    "exponential": size_rule(1),
    "poisson": size_rule(1),
    "binomial": size_rule(2),
    "choice": choice_rule,
    "permutation": permutation_rule,
    "shuffle": same_rule,
}


def _generator_choice(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Generator.choice(a, size, replace, p, axis, shuffle): k draws, each a row of `a`
    along `axis`; without replacement (and without p) it shuffles a whole range of the
    population unless that is over 10,000 and k a small share of it (Floyd's algorithm)."""
    given = dict(zip(("a", "size", "replace", "p", "axis", "shuffle"), args))
    given.update(kwargs)
    draws = numel(given.get("size"))
    n = population(given.get("a"))
    if n is None:  # an array: each draw is a slice of it
        shape = shape_of(given.get("a"))
        axis = given.get("axis", 0)
        if shape and isinstance(axis, int) and -len(shape) <= axis < len(shape):
            n = shape[axis]
            draws *= math.prod(shape) // max(n, 1)
    check(name, draws)
    if n is not None and not given.get("replace", True) and given.get("p") is None:
        cutoff = 50 if given.get("shuffle", True) else 20
        if n <= 10_000 or numel(given.get("size")) > n // cutoff:
            check(name, n)


# numpy.random.Generator's methods (its names: integers, not randint).
GENERATOR_RULES: dict[str, Rule] = {
    "random": size_rule(0),
    "standard_normal": size_rule(0),
    "integers": size_rule(2),
    "normal": size_rule(2),
    "uniform": size_rule(2),
    "exponential": size_rule(1),
    "poisson": size_rule(1),
    "binomial": size_rule(2),
    "choice": _generator_choice,
    "permutation": permutation_rule,
    "shuffle": same_rule,
}

# SeedSequence's entropy: numbers, and no more than a Mersenne Twister's state holds.
_ENTROPY_ITEMS = 624


def _entropy(what: str, seed: Any) -> Any:
    """A seed numpy may be given as it is: a non-negative integer or a short list of them.
    None (numpy would read the OS's entropy) is drawn from the job's seed instead, so the
    same request gives the same trace."""
    if seed is None:
        return unseeded_entropy()
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return int(seed)
    if isinstance(seed, (list, tuple, np.ndarray)):
        count = seed.size if isinstance(seed, np.ndarray) else len(seed)
        if count > _ENTROPY_ITEMS:  # read before the items are copied into a list
            raise ValueError(f"{what}: a seed of {count:,} numbers; at most {_ENTROPY_ITEMS}")
        items = list(seed.ravel()) if isinstance(seed, np.ndarray) else list(seed)
        if all(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in items):
            return [int(i) for i in items]
    raise TypeError(f"{what}() takes an integer, a list of integers or None as its seed")


def _generator(shown: str, real: Any, rules: dict[str, Rule]) -> Namespace:
    members = {name: checked(name, getattr(real, name), rule) for name, rule in rules.items()}
    return Namespace(f"numpy.random.{shown.partition('(')[0]}", members, real, shown=shown)


def default_rng(seed: Any = None) -> Namespace:
    """numpy's Generator (PCG64), seeded as numpy seeds it."""
    real = np.random.default_rng(_entropy("default_rng", seed))
    return _generator("Generator(PCG64)", real, GENERATOR_RULES)


def RandomState(seed: Any = None) -> Namespace:
    """numpy's legacy RandomState (MT19937), with its np.random-like methods and seed()."""
    real = np.random.RandomState(_legacy_seed("RandomState", seed))
    state = _generator("RandomState(MT19937)", real, RANDOM_RULES)

    def seed_again(seed: Any = None) -> None:
        real.seed(_legacy_seed("seed", seed))

    seed_again.__name__ = seed_again.__qualname__ = "seed"
    state.members["seed"] = seed_again
    return state


def _legacy_seed(what: str, seed: Any) -> Any:
    """The Mersenne Twister takes 32-bit numbers: the job's entropy, folded to them."""
    entropy = _entropy(what, seed)
    return [n % 2**32 for n in entropy] if seed is None else entropy


def _seed(seed: Any = None) -> None:
    if seed is not None and not isinstance(seed, (int, np.integer)):
        raise TypeError("np.random.seed takes an integer or None")
    np.random.seed(seed)


def random_namespace() -> Namespace:
    """numpy.random as a program sees it."""
    members: dict[str, Any] = {
        name: checked(name, getattr(np.random, name), rule) for name, rule in RANDOM_RULES.items()
    }
    members.update({"seed": _seed, "default_rng": default_rng, "RandomState": RandomState})
    return Namespace("numpy.random", members, np.random)

"""torch.distributions, the families tutorials use: Normal, Categorical, Bernoulli,
Uniform, MultivariateNormal and Independent, with kl_divergence (REINFORCE's
`Categorical(logits).sample()` and `log_prob`, a VAE's `Normal(mu, std).rsample()` and
its KL term, PPO's `MultivariateNormal(mean, cov)` over continuous actions).

They are torch's own classes (the graph through `rsample` and `log_prob` is torch's),
reached only through this table: no other family, no `register_kl`, no constraints or
transforms (process-wide registries), no subclassing. Every call that can make a tensor
larger than its inputs is sized first, by the rule of what torch will make:
`sample(shape)` makes shape x batch x event elements; `log_prob(value)` broadcasts the
value against the parameters (against the logits' last dim too, for a Categorical);
`enumerate_support()` makes a value per category for each batch element; `expand` and a
two-parameter constructor broadcast their shapes; kl_divergence broadcasts the two
distributions' parameters. A MultivariateNormal holds a k x k matrix per batch element,
and torch makes one for each drawn sample too (its scale matrix times each sample's
noise, broadcast): each of its rules counts k x k per element where the others count k.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeGuard

import torch
from torch import distributions as D

from gradtrace.language.errors import ForbiddenError
from gradtrace.language.sizes import refusal

Tensor = torch.Tensor

#: The families a program may build (torch's classes, by their names).
FAMILIES: dict[str, type[D.Distribution]] = {
    "Normal": D.Normal,
    "Categorical": D.Categorical,
    "Bernoulli": D.Bernoulli,
    "Uniform": D.Uniform,
    "MultivariateNormal": D.MultivariateNormal,
    "Independent": D.Independent,
}

_COMMON = frozenset(
    """
batch_shape event_shape mean mode stddev variance has_rsample has_enumerate_support
sample rsample log_prob cdf icdf entropy perplexity enumerate_support expand
""".split()
)

#: What a program may read on an instance of each family.
ATTRIBUTES: dict[type, frozenset[str]] = {
    D.Normal: _COMMON | {"loc", "scale"},
    D.Uniform: _COMMON | {"low", "high"},
    D.Bernoulli: _COMMON | {"probs", "logits"},
    D.Categorical: _COMMON | {"probs", "logits"},
    D.MultivariateNormal: _COMMON | {"loc", "covariance_matrix", "precision_matrix", "scale_tril"},
    D.Independent: _COMMON | {"base_dist", "reinterpreted_batch_ndims"},
}


def is_distribution(value: object) -> TypeGuard[D.Distribution]:
    return type(value) in ATTRIBUTES


def is_family(cls: type) -> bool:
    return cls in ATTRIBUTES


def _numel(shape: Any) -> int | None:
    """Elements of a shape as torch reads one; None where torch will refuse it itself.

    Read once here and once by torch: only what reads the same twice is taken (a
    program's own iterable could answer the size check small and torch large)."""
    if type(shape) not in (tuple, list, torch.Size) and not isinstance(shape, Tensor):
        if isinstance(shape, (int, float)):
            return None  # torch raises its own TypeError: not a shape
        raise ForbiddenError("a shape here is a tuple, a list or a torch.Size")
    try:
        size = torch.Size(shape)
    except (TypeError, ValueError, RuntimeError, OverflowError):
        return None
    if any(n < 0 for n in size):
        # expand's -1 keeps a size torch then also records as the batch shape's: every
        # later size rule would read it negative.
        raise ForbiddenError("a shape here has no negative sizes: write each size out")
    return math.prod(size)


def _broadcast_numel(*shapes: Sequence[int]) -> int | None:
    try:
        return math.prod(torch.Size(torch.broadcast_shapes(*shapes)))
    except (RuntimeError, TypeError, ValueError):
        return None  # they do not broadcast: torch says so when it runs


def _innermost(dist: D.Distribution) -> D.Distribution:
    while isinstance(dist, D.Independent):
        dist = dist.base_dist
    return dist


def _param_shape(dist: D.Distribution) -> torch.Size:
    """The shape of the parameters `dist` computes with: a Categorical's or a
    Bernoulli's own tensor (read without making the other: probs and logits are made
    lazily), else its batch and event shapes, which its parameters are broadcast to."""
    base = _innermost(dist)
    param = getattr(base, "_param", None)
    if isinstance(param, Tensor):
        return param.shape
    return dist.batch_shape + dist.event_shape


def _per_element(dist: D.Distribution) -> int:
    """Elements of the parameters per batch element (a Categorical's categories, a
    MultivariateNormal's matrix)."""
    base = _innermost(dist)
    if isinstance(base, D.Categorical):
        return int(base._num_events)
    return math.prod(dist.event_shape) * _matrix_side(dist)


def _matrix_side(dist: D.Distribution) -> int:
    """k for a MultivariateNormal over k dims (each element of it comes with a row of its
    k x k matrix), else 1."""
    base = _innermost(dist)
    if isinstance(base, D.MultivariateNormal):
        return int(base.event_shape[-1])
    return 1


_MATRICES = ("covariance_matrix", "precision_matrix", "scale_tril")


def _check_multivariate(args: tuple[Any, ...], kwargs: dict[str, Any], limit: int) -> None:
    """MultivariateNormal(loc, covariance_matrix | precision_matrix | scale_tril): torch
    broadcasts the batch dims of the two and checks the matrix (a Cholesky factorisation)
    at that size."""
    loc = args[0] if args else kwargs.get("loc")
    given = [m for m in (*args[1:4], *(kwargs.get(name) for name in _MATRICES)) if m is not None]
    if not isinstance(loc, Tensor) or not all(isinstance(m, Tensor) for m in given):
        # torch would read an object's dim(), shape and expand() (and keep a scale_tril
        # object as it is, without validate_args): the size rule could not know them.
        raise TypeError("MultivariateNormal takes a tensor loc and a tensor matrix")
    if not given:
        return  # torch says one matrix is needed
    matrix = given[0]
    if loc.dim() < 1 or matrix.dim() < 2:
        return
    try:
        batch = torch.broadcast_shapes(loc.shape[:-1], matrix.shape[:-2])
    except RuntimeError:
        return
    side = max(matrix.shape[-1], matrix.shape[-2], loc.shape[-1])
    numel = math.prod(batch) * side * side
    if numel > limit:
        raise refusal("MultivariateNormal", numel, limit)


def check_new(cls: type, args: tuple[Any, ...], kwargs: dict[str, Any], limit: int) -> None:
    """A family's constructor: Normal(loc, scale) and Uniform(low, high) broadcast theirs;
    Independent wraps one of these families (torch would call any object's methods)."""
    at = 4 if cls is D.MultivariateNormal else 2  # where validate_args stands
    validate = kwargs.get("validate_args", args[at] if len(args) > at else None)
    if validate is not None and type(validate) is not bool:
        # torch tests its truth in every later call: the program's __len__ or __bool__.
        raise TypeError("validate_args takes True, False or None")
    if cls is D.Independent:
        base = args[0] if args else kwargs.get("base_distribution")
        if not is_distribution(base):
            raise TypeError("Independent wraps a distribution (Normal, Bernoulli, ...)")
    if cls is D.MultivariateNormal:
        _check_multivariate(args, kwargs, limit)
        return
    shapes = [v.shape for v in (*args, *kwargs.values()) if isinstance(v, Tensor)]
    if len(shapes) > 1:
        numel = _broadcast_numel(*shapes)
        if numel is not None and numel > limit:
            raise refusal(cls.__name__, numel, limit)


def check_method(
    dist: D.Distribution, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], limit: int
) -> None:
    """`dist.name(*args, **kwargs)`, sized before torch makes anything."""
    numel: int | None = None
    if name in ("sample", "rsample"):
        shape = args[0] if args else kwargs.get("sample_shape", ())
        count = _numel(shape)
        if count is not None:
            per_sample = math.prod(dist.batch_shape + dist.event_shape) * _matrix_side(dist)
            numel = count * per_sample
    elif name in ("log_prob", "cdf", "icdf"):
        value = args[0] if args else kwargs.get("value")
        if not isinstance(value, (Tensor, int, float)):
            # Without validate_args, torch would compute with any object (its `long()`,
            # its `__sub__`), whose result the size rule cannot know.
            raise TypeError(f"{name} takes a tensor (or a number)")
        if isinstance(value, Tensor):
            shape = value.shape
            if isinstance(_innermost(dist), D.Categorical):
                shape = (*shape, 1)  # the value indexes the logits' last dim
            numel = _broadcast_numel(shape, _param_shape(dist))
    elif name == "enumerate_support":
        expand = args[0] if args else kwargs.get("expand", True)
        if type(expand) is not bool:  # torch tests it again: the same answer both times
            raise ForbiddenError("enumerate_support(expand=...) takes True or False")
        base = _innermost(dist)
        values = 2 if isinstance(base, D.Bernoulli) else _per_element(base)
        numel = values * (math.prod(dist.batch_shape) if expand else 1)
    elif name == "expand":
        if "_instance" in kwargs or len(args) > 1:
            raise ForbiddenError("expand takes the new batch shape only")
        shape = args[0] if args else kwargs.get("batch_shape", ())
        count = _numel(shape)
        if count is not None:
            numel = count * _per_element(dist)
    if numel is not None and numel > limit:
        raise refusal(f"{type(dist).__name__}.{name}", numel, limit)


def check_kl(args: tuple[Any, ...], kwargs: dict[str, Any], limit: int) -> None:
    """kl_divergence(p, q) broadcasts the two distributions' parameters."""
    p = args[0] if args else kwargs.get("p")
    q = args[1] if len(args) > 1 else kwargs.get("q")
    if not (is_distribution(p) and is_distribution(q)):
        # torch would remember any pair of classes it was asked about, for the process.
        raise TypeError("kl_divergence takes two distributions (Normal, Categorical, ...)")
    numel = _broadcast_numel(_param_shape(p), _param_shape(q))
    if numel is not None:
        numel *= max(_matrix_side(p), _matrix_side(q))
        if numel > limit:
            raise refusal("kl_divergence", numel, limit)

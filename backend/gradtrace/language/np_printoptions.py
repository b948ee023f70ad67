"""np.set_printoptions for programs: each option checked before numpy takes it, and every
job starting from numpy's defaults (the options are the worker process's, so one job's
would print the next one's arrays).

An array's text is built whole before the output limit can refuse it: the sizes that make
it long (precision, threshold, edgeitems, linewidth, the nan and inf strings) are bounded
as torch.set_printoptions's are. A formatter or override_repr would be the program's
functions called from numpy for each element: refused.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits

_DEFAULTS = np.get_printoptions()
_SIGNATURE = inspect.signature(np.set_printoptions)
# A float64 has 17 significant digits (torch's bound is the same).
_PRECISION = 50
# edgeitems prints that many rows and columns at each edge, whatever the threshold: at
# 500 a 1000 x 1000 array is printed whole.
_EDGEITEMS = 100
_TEXT = 32
_SIZES = ("threshold", "edgeitems", "linewidth")


# Whether a program has set them since the last reset (most jobs never do: ~9 us saved).
_changed = [False]


def reset() -> None:
    """numpy's default print options: every job starts from them, and leaves them so."""
    if _changed[0]:
        np.set_printoptions(**_DEFAULTS)
        _changed[0] = False


def _number(name: str, value: Any, bound: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"np.set_printoptions: {name} must be a number")
    if not value >= 0:
        raise ValueError(f"np.set_printoptions: {name} must be non-negative")
    if not value <= bound:
        raise LimitError(
            f"np.set_printoptions: {name} of {value} is over the limit ({bound:,}): "
            "an array's text is built whole before it is printed"
        )


def check(chars: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The options a program passes, each of a type numpy reads without calling it."""
    options = _SIGNATURE.bind(*args, **kwargs).arguments
    for name, value in options.items():
        if value is None:
            continue
        if name in ("formatter", "override_repr"):
            raise ForbiddenError(
                f"np.set_printoptions({name}=...) is not available in gradtrace: numpy would "
                "call the program's functions for each element"
            )
        if name == "precision":
            _number(name, value, _PRECISION)
        elif name == "edgeitems":
            _number(name, value, min(_EDGEITEMS, chars))
        elif name in _SIZES:
            _number(name, value, chars)
        elif name == "suppress":
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError("np.set_printoptions: suppress must be True or False")
        elif name == "legacy":
            if value is not False and type(value) is not str:
                raise TypeError("np.set_printoptions: legacy must be False or a version string")
        elif type(value) is not str:  # nanstr, infstr, sign, floatmode
            raise TypeError(f"np.set_printoptions: {name} must be a string")
        elif len(value) > _TEXT:
            raise LimitError(
                f"np.set_printoptions: a {name} of {len(value):,} characters is over the "
                f"limit ({_TEXT}): it is written for each element"
            )


def set_printoptions(*args: Any, **kwargs: Any) -> None:
    """numpy's, with its options checked first."""
    from gradtrace.language import callables  # the running job's limits

    try:
        chars = callables.current().limits.string_chars
    except RuntimeError:
        chars = Limits().string_chars
    check(chars, args, kwargs)
    _changed[0] = True
    np.set_printoptions(*args, **kwargs)


set_printoptions.__module__ = "numpy"

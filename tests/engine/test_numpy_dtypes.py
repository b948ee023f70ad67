"""numpy's dtypes a program may make arrays of: numbers, booleans and text, each array no
bigger in bytes than the element limit's worth of float64. Objects, raw bytes, void,
dates and records are refused wherever a dtype is given or made (a dtype argument, a
method's, a result); what an array may hold is checked before numpy allocates it. What
is allowed runs as in CPython: tests/programs/p76_numpy_dtypes_allowed.py."""

from __future__ import annotations

import pytest

import gradtrace


@pytest.mark.parametrize(
    "expression",
    [
        "np.zeros(2, dtype='O')",
        "np.zeros(2, 'O')",
        "np.ones(2).astype('O')",
        "np.ones(2).astype(dtype='O')",
        "np.ones(2).sum(dtype='O')",
        "np.zeros(2, dtype=[('a', 'f8')])",
        "np.zeros(2, dtype=('f8', (2,)))",
        "np.zeros(2, dtype='V8')",
        "np.zeros(2, dtype='S3')",
        "np.zeros(2, dtype='M8[s]')",
        "np.zeros(2, dtype='m8')",
        "np.array([1, 2], dtype='O')",
        "np.full(2, 0, 'O')",
        "np.arange(0, 3, 1, 'O')",
    ],
)
def test_other_dtypes_are_refused(expression: str) -> None:
    trace = gradtrace.run(f"import numpy as np\nx = {expression}\n")
    assert trace.error is not None and trace.error.type == "ForbiddenError", trace.error
    assert trace.error.line == 2


@pytest.mark.parametrize(
    "expression",
    [
        "np.full(4, 'x', dtype='U100000000')",
        "np.zeros(100000).astype('U100000')",
        "np.array(['x' * 100000] * 1000)",
        "np.full(10000, 'y' * 50000)",
        "np.array(['ab' * 5000] * 1000) + np.array(['cd' * 5000] * 1000)",
    ],
)
def test_wide_text_is_bounded_in_bytes_before_numpy_allocates(expression: str) -> None:
    trace = gradtrace.run(f"import numpy as np\nx = {expression}\n")
    assert trace.error is not None and trace.error.type == "LimitError", trace.error
    assert "MiB per array" in trace.error.message or "bytes" in trace.error.message

"""The engine's tensor printer writes exactly what torch's `str(tensor)` writes.

Hypothesis draws tensors of every dtype the printer handles (and some it hands back to
torch), of 0 to 4 dimensions, with values across magnitudes, integers, signed zeros, NaN
and infinities, leaves that require grad and results with a grad_fn, under torch's
default print options and under changed ones; torch's own printer is the reference.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from gradtrace.language.tensor_text import tensor_str, value_str

_DTYPES = [
    torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32,
    torch.int16, torch.int8, torch.uint8, torch.bool, torch.complex64,
]  # fmt: skip

_SPECIAL = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, 1e-5, 1e9, 123456.0]


@st.composite
def _numbers(draw: st.DrawFn, count: int) -> list[float]:
    scale = draw(st.sampled_from([1e-6, 1e-3, 1.0, 10.0, 1e4, 1e9]))
    integral = draw(st.booleans())
    out = []
    for _ in range(count):
        if draw(st.integers(0, 9)) == 0:
            out.append(draw(st.sampled_from(_SPECIAL)))
            continue
        v = draw(st.floats(-1.0, 1.0, allow_nan=False)) * scale
        out.append(float(round(v)) if integral else v)
    return out


@st.composite
def tensors(draw: st.DrawFn) -> torch.Tensor:
    dtype = draw(st.sampled_from(_DTYPES))
    shape = tuple(draw(st.lists(st.integers(1, 5), max_size=4)))
    count = math.prod(shape)
    numbers = draw(_numbers(count))
    t = torch.tensor(numbers, dtype=torch.float64).reshape(shape)
    if dtype in (torch.int8, torch.uint8, torch.int16):
        t = torch.nan_to_num(t, nan=0.0, posinf=100.0, neginf=-100.0).clamp(-100, 100)
    elif not dtype.is_floating_point and not dtype.is_complex:
        t = torch.nan_to_num(t, nan=0.0, posinf=1e6, neginf=-1e6).clamp(-1e12, 1e12)
    t = t.to(dtype)
    if dtype.is_floating_point and draw(st.booleans()):
        t.requires_grad_(True)
        if draw(st.booleans()):
            t = t * 1  # a result with a grad_fn (MulBackward0)
    return t


@contextlib.contextmanager
def print_options(**options: Any) -> Iterator[None]:
    saved = torch._tensor_str.get_printoptions()
    torch.set_printoptions(**options)
    try:
        yield
    finally:
        torch.set_printoptions(**saved)


@settings(max_examples=400, deadline=None)
@given(tensors())
def test_same_text_as_torch(t: torch.Tensor) -> None:
    assert tensor_str(t) == str(t)


@settings(max_examples=150, deadline=None)
@given(
    tensors(),
    st.integers(0, 8),
    st.sampled_from([None, True, False]),
    st.sampled_from([20, 40, 80, 120]),
    st.sampled_from([torch.float32, torch.float64]),
)
def test_same_text_under_other_print_options(
    t: torch.Tensor, precision: int, sci_mode: bool | None, linewidth: int, default: torch.dtype
) -> None:
    saved = torch.get_default_dtype()
    torch.set_default_dtype(default)
    try:
        with print_options(precision=precision, sci_mode=sci_mode, linewidth=linewidth):
            assert tensor_str(t) == str(t)
    finally:
        torch.set_default_dtype(saved)


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.zeros(0),  # empty
        lambda: torch.zeros(2, 0, 3),
        lambda: torch.arange(2000.0),  # summarised with ...
        lambda: torch.nn.Parameter(torch.ones(2)),  # a subclass: "Parameter containing:"
        lambda: torch.ones(3).to_sparse(),
        lambda: torch.ones(2, dtype=torch.complex64),
        lambda: torch.ones(4)[::2],  # a strided view
        lambda: torch.ones(3, requires_grad=True).clone()[1:],  # a view with a grad_fn
        lambda: torch.ones(2, 2).t(),
    ],
)
def test_other_tensors_print_as_torch_prints_them(make: Any) -> None:
    t = make()
    assert tensor_str(t) == str(t)


def test_view_of_a_base_changed_in_place_prints_as_torch_does() -> None:
    base = torch.ones(3, requires_grad=True).clone()
    view = base[:2]
    with torch.no_grad():
        base.mul_(2)
    assert tensor_str(view) == str(view)


def test_custom_function_names_its_grad_fn() -> None:
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
            return x**3

        @staticmethod
        def backward(ctx: Any, g: torch.Tensor) -> torch.Tensor:
            return g

    y = Cube.apply(torch.tensor([1.5, 2.0], requires_grad=True))
    assert "grad_fn=<CubeBackward>" in tensor_str(y)
    assert tensor_str(y) == str(y)


_SCALARS = st.one_of(
    st.integers(-5, 5), st.floats(-2, 2), st.booleans(), st.none(), st.text(max_size=3)
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(tensors(), _SCALARS), max_size=4), st.booleans())
def test_lists_and_tuples_of_tensors_same_text_as_python(items: list[Any], as_tuple: bool) -> None:
    value = tuple(items) if as_tuple else items
    assert value_str(value) == str(value)


def test_containers_that_may_hold_a_cycle_print_as_python_does() -> None:
    t = torch.ones(2)
    loop: list[Any] = [t]
    loop.append(loop)
    inner: list[Any] = [t]
    outer: list[Any] = [t, inner]
    inner.append(outer)
    for value in (loop, outer, (t, loop), [t, (t,)], (t,), [t, {"a": t}]):
        assert value_str(value) == str(value)

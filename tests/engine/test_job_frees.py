"""A finished job leaves nothing of the evaluator either: the interpreter, its scopes, the
program's functions and objects, the recorder and its tensors are freed by reference
counting when the job returns, whatever the program used.

Two ways it can fail, each counted here with the cyclic GC disabled (as a job runs):
- a cycle: what a collection finds after the job (a function defined in a function is
  held by the scope it holds; a raised exception's traceback holds the frame that holds
  it; a closure that calls itself);
- a leak: what is still alive after a collection. torch keeps hooks and a Function's
  class from C++, where the GC cannot follow: a hook that still held the interpreter
  kept the whole job alive for good.

A program's class is a cycle of its own in CPython (its `__mro__` holds it): it is left
for a collection, and emptied when the job ends, so it holds nothing of the job.
"""

from __future__ import annotations

import gc
import types
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
from engine_support import cyclic_garbage
from pydantic import BaseModel

import gradtrace
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.runtime import Scope
from gradtrace.language.values import UserFunction

HOOKS = """import torch
seen = []
def double(grad):
    seen.append(grad.clone())
    return grad * 2
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.register_hook(double)
x.register_hook(lambda g: print("x grad", g))
y.sum().backward()
def local_hooks():
    w = torch.ones(3, requires_grad=True)
    v = w * 2
    v.register_hook(lambda g: g * w)
    w.register_hook(lambda g: print(g, v))
    v.sum().backward()
    return w.grad
print(local_hooks())
"""

MODULE_HOOKS = """import torch
from torch import nn
def build():
    net = nn.Linear(3, 2)
    calls = []
    def forward_hook(module, inputs, output):
        calls.append(output.detach())
    def pre_hook(module, inputs):
        calls.append(inputs[0])
    def backward_hook(module, grad_in, grad_out):
        calls.append(grad_out[0])
    net.register_forward_hook(forward_hook)
    net.register_forward_pre_hook(pre_hook)
    net.register_full_backward_hook(backward_hook)
    return net, calls
net, calls = build()
net(torch.ones(4, 3)).sum().backward()
print(len(calls))
"""

CUSTOM_FUNCTION = """import torch
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        ctx.note = x * 1
        return x * x
    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad
def use():
    class Local(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x + 1
        @staticmethod
        def backward(ctx, grad):
            return grad
    a = torch.ones(3, requires_grad=True)
    out = Local.apply(Square.apply(a))
    out.sum().backward()
    return a.grad
print(use())
"""

CLASSES = """import torch
from torch import nn
class Counter:
    start = torch.zeros(2)
    def __init__(self, value):
        self.value = value
    def bump(self):
        self.value = self.value + 1
        return self
    @property
    def twice(self):
        return self.value * 2
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(2, 1)
    def forward(self, x):
        return self.layer(x)
c = Counter(torch.ones(2)).bump()
print(c.twice, Net()(torch.ones(1, 2)).sum())
"""

# Methods set on classes after their body (d2l's add_to_class), a tensor among them.
CLASS_MEMBERS = """import torch
from torch import nn
def add_to_class(Class):
    def wrapper(obj):
        setattr(Class, obj.__name__, obj)
    return wrapper
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(2, 1)
@add_to_class(Net)
def forward(self, x):
    return self.layer(x) * self.scale
class Plain:
    pass
Net.scale = torch.full((1,), 2.0)
Plain.made = lambda self: Net()(torch.ones(1, 2))
print(Plain().made().sum())
"""

CLOSURES = """import torch
class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(children)
    def __mul__(self, other):
        out = Value(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
def counter():
    count = torch.zeros(1)
    def bump():
        nonlocal count
        count = count + 1
        return count
    return bump
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
a, b = Value(2.0), Value(3.0)
c = a * b
c.grad = 1.0
c._backward()
bump = counter()
bump()
print(a.grad, bump(), fib(8), hash((a, 1)), id(b) > 0)
"""

GENERATORS = """import torch
def batches(n):
    t = torch.arange(float(n))
    for i in range(n):
        yield t[i] * 2
def forever():
    k = 0
    while True:
        yield k
        k += 1
total = sum(batches(5))
g = forever()
print(total, next(g), next(g), [v for v in batches(3)])
pairs = ((i, j) for i in range(3) for j in batches(i) if j > 0)
print(next(pairs), sum(j for _, j in pairs))
"""

DATACLASSES = """import torch
from dataclasses import dataclass, field
@dataclass
class Config:
    scale: torch.Tensor
    width: int = 3
    tags: list = field(default_factory=list)
@dataclass
class Point:
    x: float
    y: float
c = Config(scale=torch.ones(2))
print(c, Point(1.0, 2.0) == Point(1.0, 2.0))
"""

EXCEPTIONS = """import torch
from torch import nn
def fails(t):
    raise ValueError("stop " + str(t.sum().item()))
x = torch.ones(2, requires_grad=True)
try:
    fails(x * 2)
except ValueError as e:
    print("caught", e)
try:
    undefined_name
except NameError:
    print("no name")
def guarded(t):
    try:
        return t[5]
    except IndexError as err:
        return "guarded: " + str(err)
print(guarded(torch.ones(2)))
print(getattr(nn.Linear(2, 2), "no_such", None))
class Items:
    def __init__(self):
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.i += 1
        if self.i > 3:
            raise StopIteration
        return self.i
print(list(Items()))
"""

SAVED_TENSOR_HOOKS = """import torch
def run():
    kept = []
    def pack(t):
        kept.append(t)
        return t
    def unpack(t):
        return t
    x = torch.ones(3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
    y.backward()
    return x.grad
print(run())
"""

SOURCES = [
    pytest.param(HOOKS, id="tensor hooks"),
    pytest.param(MODULE_HOOKS, id="module hooks"),
    pytest.param(CUSTOM_FUNCTION, id="custom Function"),
    pytest.param(CLASSES, id="classes"),
    pytest.param(CLASS_MEMBERS, id="class members set after the body"),
    pytest.param(CLOSURES, id="closures"),
    pytest.param(GENERATORS, id="generators"),
    pytest.param(DATACLASSES, id="dataclasses"),
    pytest.param(EXCEPTIONS, id="exceptions"),
    pytest.param(SAVED_TENSOR_HOOKS, id="saved tensor hooks"),
]

_JOB_TYPES = (Interpreter, Scope, UserFunction, torch.Tensor, BaseModel, BaseException)


def _of_the_job(obj: Any) -> bool:
    """An object a job made or runs on, not a class or what every class is made of."""
    kind = type(obj)
    if kind in (weakref.ProxyType, weakref.CallableProxyType) or isinstance(obj, type):
        return False
    if isinstance(obj, _JOB_TYPES):
        return True
    module = getattr(type(obj), "__module__", "") or ""
    if module == "__main__" or module.startswith("gradtrace."):
        return True  # the program's objects, the evaluator's and the recorder's
    if isinstance(obj, types.FrameType):
        return _in_gradtrace(obj.f_code)
    if isinstance(obj, types.FunctionType):
        return _in_gradtrace(obj.__code__)
    return False


def _in_gradtrace(code: types.CodeType) -> bool:
    return "/gradtrace/" in Path(code.co_filename).as_posix()


def _describe(obj: Any) -> str:
    if isinstance(obj, types.FunctionType):
        return f"function {obj.__qualname__}"
    if isinstance(obj, types.FrameType):
        return f"frame {obj.f_code.co_name}"
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def _job_garbage(call: Callable[[], Any]) -> list[str]:
    """What of a job a collection finds after `call()` returned and its result was dropped."""
    return sorted(set(cyclic_garbage(call, _of_the_job, _describe)))


def _alive() -> dict[str, int]:
    gc.collect()
    counts = {"Interpreter": 0, "Scope": 0, "UserFunction": 0, "program object": 0}
    for obj in gc.get_objects():
        kind = type(obj)
        if kind is Interpreter or kind is Scope or kind is UserFunction:
            counts[kind.__name__] += 1
        elif kind.__module__ == "__main__" and not isinstance(obj, type):
            counts["program object"] += 1
    return counts


@pytest.mark.parametrize("source", SOURCES)
def test_the_program_runs(source: str) -> None:
    trace = gradtrace.run(source)
    assert trace.ok, trace.error
    assert trace.stdout


@pytest.mark.parametrize("source", SOURCES)
def test_a_job_leaves_no_cycles(source: str) -> None:
    assert _job_garbage(lambda: gradtrace.run(source)) == []


@pytest.mark.parametrize("source", SOURCES)
def test_a_job_leaves_nothing_alive(source: str) -> None:
    gradtrace.run(source)
    before = _alive()
    for _ in range(3):
        gradtrace.run(source)
    assert _alive() == before


def test_the_cycle_check_can_fail() -> None:
    """The same count finds a program's function kept in a cycle."""

    def cyclic() -> Any:
        scope = Scope({}, None)
        scope.vars["f"] = UserFunction("f", "f", None, None, scope)  # type: ignore[arg-type]
        return None

    assert "gradtrace.language.values.UserFunction" in _job_garbage(cyclic)


def test_the_alive_check_can_fail() -> None:
    """The same count finds a program's function kept alive after its job."""
    kept: list[Any] = []
    before = _alive()
    kept.append(UserFunction("f", "f", None, None, Scope({}, None)))  # type: ignore[arg-type]
    assert _alive() != before

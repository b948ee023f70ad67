"""A hook whose owner leads back to its tensor must not keep the job alive after it.

torch keeps a tensor's (or a Node's) hooks from C++, where the cyclic GC cannot follow:
a hook that leads back to the tensor it is registered on is never freed. The program's
own functions are emptied when the job ends (test_job_frees.py); these are the other
callables a program can register, each a Checked whose owner or function holds the job:
a generator's `send` (the generator holds the interpreter and its locals), a builtin
(`print`, a closure of the evaluator), a list's `append`, a method of the
program's object, a hook on a Node; and the containers torch holds from C++ that a
program can fill after torch took them (a Node's `metadata`, a list a pack hook returned, a custom Function's ctx). Each job below keeps a tensor of an unusual size
(`MARK` elements) reachable from its hook; after three more jobs none may be left.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
import torch

import gradtrace
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.namespaces import MODULES
from gradtrace.language.parse import parse_program
from gradtrace.trace.recorder import Recorder

MARK = 123_457

GENERATOR_SEND = f"""import torch
def passing():
    kept = torch.ones({MARK})
    g = None
    while True:
        g = yield g
g = passing()
next(g)
x = torch.ones(3, requires_grad=True)
y = x * 2
y.register_hook(g.send)
y.sum().backward()
print(x.grad)
"""

BUILTIN = f"""import torch
big = torch.ones({MARK})
x = torch.ones(3, requires_grad=True)
y = x * 2
y.register_hook(print)
y.sum().backward()
"""

LIST_APPEND = f"""import torch
kept = [torch.ones({MARK})]
x = torch.ones(3, requires_grad=True)
y = x * 2
kept.append(x)
kept.append(y)
x.register_post_accumulate_grad_hook(kept.append)
y.register_hook(kept.append)
y.sum().backward()
print(len(kept))
"""

BOUND_METHOD = f"""import torch
class Keep:
    def __init__(self):
        self.big = torch.ones({MARK})
    def hook(self, g):
        return g
k = Keep()
x = torch.ones(3, requires_grad=True)
y = x * 2
k.y = y
y.register_hook(k.hook)
y.sum().backward()
"""

NODE_HOOK = f"""import torch
big = torch.ones({MARK})
x = torch.ones(3, requires_grad=True)
y = x * 2
y.grad_fn.register_hook(print)
y.grad_fn.register_prehook(print)
y.sum().backward()
"""

NODE_METADATA = f"""import torch
def gen():
    big = torch.ones({MARK})
    yield big
g = gen()
next(g)
x = torch.ones(3, requires_grad=True)
y = x * 2
y.grad_fn.metadata["keep"] = [y, print, g]
print(y.sum())
"""

PACKED_LIST = f"""import torch
box = [torch.ones({MARK})]
def pack(t):
    return box
def unpack(b):
    return b[1]
x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
box.append(x)
box.append(y)
box.append(print)
print(y.sum())
"""

CTX_ATTRIBUTE = f"""import torch
box = [torch.ones({MARK}), print]
class Doubled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.box = box
        return t * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.ones(3, requires_grad=True)
y = Doubled.apply(x)
box.append(y)
print(y.sum())
"""

SOURCES = [
    pytest.param(GENERATOR_SEND, id="generator send"),
    pytest.param(BUILTIN, id="builtin"),
    pytest.param(LIST_APPEND, id="list append"),
    pytest.param(BOUND_METHOD, id="bound method"),
    pytest.param(NODE_HOOK, id="Node hook"),
    pytest.param(NODE_METADATA, id="Node metadata"),
    pytest.param(PACKED_LIST, id="packed list"),
    pytest.param(CTX_ATTRIBUTE, id="ctx attribute"),
]


def _alive() -> tuple[int, int]:
    gc.collect()
    interpreters = marked = 0
    for obj in gc.get_objects():
        if type(obj) is Interpreter:
            interpreters += 1
        elif type(obj) is torch.Tensor and obj.numel() == MARK:
            marked += 1
    return interpreters, marked


@pytest.mark.parametrize("source", SOURCES)
def test_a_hook_keeps_nothing_of_its_job(source: str) -> None:
    trace = gradtrace.run(source)
    assert trace.ok, trace.error
    before = _alive()
    for _ in range(3):
        assert gradtrace.run(source).ok
    assert _alive() == before


LAMBDA_HOOK = f"""import torch
x = torch.ones(3, requires_grad=True)
kept = torch.ones({MARK})
y = x * 2
y.register_hook(lambda g: g + kept.sum() * 0)
y.sum().backward()
"""


def test_a_gradient_check_keeps_nothing_of_its_runs() -> None:
    """The gradient check runs the program once and again per perturbed element: each run
    ends as a traced job does, its functions emptied and its hooks removed."""
    from gradtrace.gradcheck import check_gradients

    assert check_gradients(LAMBDA_HOOK).ok
    before = _alive()
    for _ in range(2):
        assert check_gradients(LAMBDA_HOOK).ok
    assert _alive() == before


SUSPENDED_GENERATOR = f"""import torch
def numbers():
    kept = torch.ones({MARK})
    yield 1
    yield 2
g = numbers()
print(next(g))
"""


def _kept_after_the_job(source: str, name: str) -> tuple[Any, bool]:
    """Run `source` as a job does, keep its global `name` past the job's end, and say
    whether the job's interpreter was freed meanwhile (after a collection)."""
    limits = Limits()
    recorder = Recorder(limits)
    recorder.bind_specials(MODULES)
    interp = Interpreter(source, limits, recorder, "cpu")
    interp.run(parse_program(source, limits))
    kept = interp.globals.vars[name]
    interp.close()
    recorder.close()
    job = weakref.ref(interp)
    del interp, recorder
    gc.collect()
    return kept, job() is None


def test_a_generator_kept_after_its_job_holds_nothing_of_it() -> None:
    """Whatever still holds a program's generator when the job ends (a route from C++ not
    closed above) holds neither the interpreter nor the suspended frame's locals."""
    generator, freed = _kept_after_the_job(SUSPENDED_GENERATOR, "g")
    assert freed
    assert not any(type(o) is torch.Tensor and o.numel() == MARK for o in gc.get_objects())
    with pytest.raises(RuntimeError, match="program has ended"):
        next(generator)


BUILTINS_HELD = """import torch
kept = [print, getattr, map, sorted, isinstance, id]
print(len(kept))
"""


def test_a_builtin_kept_after_its_job_holds_nothing_of_it() -> None:
    """Whatever still holds a builtin a program took (`print`, `getattr`: closures of the
    job's evaluator) when the job ends holds the interpreter only weakly; called after
    the job, it refuses."""
    held, freed = _kept_after_the_job(BUILTINS_HELD, "kept")
    assert freed
    with pytest.raises(RuntimeError, match="program has ended"):
        held[0]("after the job")

"""Callables a program holds are Checked: aliases work as direct calls, and nothing the
allowlists admit hands a program a raw Python or torch callable (issue 15, finding 1)."""

from __future__ import annotations

import ast
import functools
import types
from typing import Any

import numpy as np
import pytest
import torch
from torch import nn, optim
from torch.utils.data import TensorDataset

import gradtrace
from gradtrace.language import attributes, callables, distributions, namespaces
from gradtrace.language.arrays import ARRAY_ATTRIBUTES
from gradtrace.language.callables import Checked
from gradtrace.language.interpreter import Interpreter
from gradtrace.language.limits import Limits
from gradtrace.language.pymodules import TYPING_FORMS
from gradtrace.language.values import Namespace, UserFunction
from gradtrace.trace.recorder import Recorder

RAW = (
    types.BuiltinFunctionType,
    types.MethodType,
    types.FunctionType,
    types.MethodWrapperType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
    types.ClassMethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    types.ModuleType,
    types.FrameType,
    types.CodeType,
    functools.partial,
    staticmethod,
    classmethod,
    property,
)
ADMITTED_CALLABLES = (
    type,
    UserFunction,
    Checked,
    Namespace,
    nn.Module,
    torch.autograd.graph.Node,
    torch.no_grad,
    torch.enable_grad,
    torch.set_grad_enabled,
    torch.inference_mode,
)
HIDDEN = (
    "__self__",
    "__func__",
    "__globals__",
    "__wrapped__",
    "__closure__",
    "__code__",
    "__dict__",
    "__class__",
    "__objclass__",
    "__module__",
    "__defaults__",
    "__call__",
    "__reduce_ex__",
)


def run(source: str) -> Any:
    return gradtrace.run(source, limits=Limits(wall_time_s=10.0))


def out(source: str) -> str:
    trace = run(source)
    assert trace.ok, trace.error
    return str(trace.stdout)


# -- aliases behave as the direct calls ----------------------------------------------------


def test_aliased_tensor_method_is_recorded_like_a_call() -> None:
    direct = run("import torch\nx = torch.ones(3, requires_grad=True)\ny = x.add(1)\n")
    alias = run("import torch\nx = torch.ones(3, requires_grad=True)\nf = x.add\ny = f(1)\n")
    assert direct.ok and alias.ok
    assert [n.kind for n in direct.nodes] == [n.kind for n in alias.nodes]
    assert len(direct.edges) == len(alias.edges) > 0
    assert out("import torch\nx = torch.ones(2)\nf = x.add\nprint(f(1))\n") == "tensor([2., 2.])\n"


def test_aliased_backward_is_a_recorded_pass() -> None:
    source = (
        "import torch\nx = torch.tensor(2.0, requires_grad=True)\nloss = x * x\n"
        "b = loss.backward\nb()\nprint(x.grad)\n"
    )
    trace = run(source)
    assert trace.ok, trace.error
    assert trace.stdout == "tensor(4.)\n"
    assert len(trace.passes) == 1
    assert sum(1 for e in trace.timeline if e.phase == "backward") >= 2


def test_unbound_tensor_method_and_torch_function_values() -> None:
    assert (
        out(
            "import torch\nadd = torch.Tensor.add\nz = torch.zeros\nrelu = torch.nn.functional.relu\n"
            "print(add(torch.ones(2), 1), z(2), relu(torch.tensor([-1.0, 2.0])))\n"
        )
        == "tensor([2., 2.]) tensor([0., 0.]) tensor([0., 2.])\n"
    )


def test_builtins_and_str_methods_as_values() -> None:
    assert (
        out(
            "print(list(map(str.upper, ['a', 'b'])), sorted(['ccc', 'a', 'bb'], key=len),\n"
            "      max(['a', 'bbb'], key=len), list(filter(str.isdigit, ['1', 'x'])))\n"
            "p = print\np('via alias')\nj = ', '.join\nprint(j(['x', 'y']))\n"
        )
        == "['A', 'B'] ['a', 'bb', 'ccc'] bbb ['1']\nvia alias\nx, y\n"
    )


def test_format_alias_keeps_the_plain_field_check_and_works() -> None:
    assert out("f = '{} and {x}'.format\nprint(f(1, x=2))\n") == "1 and 2\n"
    trace = run("f = '{0.real}'.format\nprint(f(1))\n")
    assert not trace.ok and trace.error is not None
    assert trace.error.type == "ForbiddenError"


def test_hooks_apply_and_optimizer_step_through_values() -> None:
    source = """import torch
import torch.nn as nn
m = nn.Linear(2, 1)
zero = nn.init.zeros_
def init(layer):
    if isinstance(layer, nn.Linear):
        zero(layer.weight)
m.apply(init)
x = torch.ones(2, requires_grad=True)
x.register_hook(torch.neg)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
step = opt.step
loss = m(x).sum() + x.sum()
loss.backward()
step()
print(m.weight, x.grad)
"""
    text = out(source)
    assert "tensor([[-0.1000, -0.1000]], requires_grad=True)" in text
    assert "tensor([-1., -1.])" in text


def test_no_addresses_in_printed_functions_and_nodes() -> None:
    text = out(
        "import torch\ndef f():\n    pass\ny = torch.ones(1, requires_grad=True) * 2\n"
        "print(f, y.grad_fn, [f], str(f), f'{f!r}', '{}'.format(y.grad_fn), repr(len))\n"
    )
    assert "0x7" not in text and "0x5" not in text
    assert "<function f at 0x…>" in text


def test_hash_of_a_function_or_class_is_its_id_number_not_its_address() -> None:
    # A Checked defines __hash__ (a class's wrapper equals its class): hash() of len, of
    # list or of any class handed to it (as its wrapper) gave object.__hash__, the address
    # rotated by 4 bits (0x7f.. of the heap), where id() numbering stands in for it.
    text = out(
        "import torch\nx = torch.Tensor\n"
        "print(hash(len), hash(list), hash(torch.Tensor), hash(x) == hash(torch.Tensor),"
        " hash(list) == hash(type([])), hash([].append) > 0)\n"
    )
    assert text.split() == ["1", "2", "3", "True", "True", "True"]


# -- nothing admitted is a raw callable ----------------------------------------------------


def _interp() -> Interpreter:
    limits = Limits()
    return Interpreter("", limits, Recorder(limits), "cpu")


class _Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return 2 * x * g


def _samples() -> list[tuple[object, frozenset[str]]]:
    """One value of each exposed type, with the attribute names the allowlists admit."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 2
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    opt = optim.SGD(model.parameters(), lr=0.1)
    sched = optim.lr_scheduler.StepLR(opt, 1)
    custom = _Square.apply(x)
    handle = x.register_hook(lambda g: g)
    loader = namespaces.MODULES["torch.utils.data"].members["DataLoader"](
        TensorDataset(torch.ones(2, 1)), batch_size=1
    )
    tensor_names = attributes._TENSOR_METHODS | attributes._TENSOR_ATTRIBUTES
    module_names = attributes._MODULE_ATTRIBUTES
    samples: list[tuple[object, frozenset[str]]] = [
        (x, tensor_names),
        (y, tensor_names),
        (nn.Parameter(torch.ones(2)), tensor_names),
        (model, module_names),
        (nn.ModuleList([nn.Linear(1, 1)]), module_names),
        (nn.ModuleDict({"a": nn.Linear(1, 1)}), module_names),
        (nn.Linear(2, 2), module_names),
        (opt, attributes._OPTIMIZER_ATTRIBUTES),
        (sched, attributes._SCHEDULER_ATTRIBUTES),
        (y.grad_fn, attributes._NODE_ATTRIBUTES),
        (custom.grad_fn, attributes._CTX_ATTRIBUTES | attributes._NODE_ATTRIBUTES),
        (handle, frozenset({"remove"})),
        (ValueError("x"), frozenset({"args"})),
        (torch.max(x, 0), frozenset({"values", "indices", "count", "index"})),
        (loader, attributes._PLAIN_ATTRIBUTES[type(loader)]),
    ]
    plain_values: list[object] = [
        "s", [1], {"a": 1}, (1,), {1}, frozenset({1}), 1, 1.5, 1j, True, range(3),
        slice(1, 2), torch.Size([2]), torch.float32, torch.device("cpu"),
        torch.finfo(torch.float32), torch.iinfo(torch.int32), TensorDataset(torch.ones(2)),
    ]  # fmt: skip
    for value in plain_values:
        samples.append((value, attributes._PLAIN_ATTRIBUTES[type(value)]))
    samples.append((np.ones(3), ARRAY_ATTRIBUTES))
    normal = torch.distributions.Normal(torch.zeros(2), torch.ones(2))
    for dist in (
        normal,
        torch.distributions.Categorical(logits=torch.zeros(3)),
        torch.distributions.Bernoulli(probs=torch.tensor([0.5])),
        torch.distributions.Uniform(0.0, torch.ones(2)),
        torch.distributions.Independent(normal, 1),
    ):
        samples.append((dist, distributions.ATTRIBUTES[type(dist)]))
    samples.append((np.float64(1.5), ARRAY_ATTRIBUTES))
    # Methods read off the classes themselves (str.upper, torch.Tensor.add...).
    for cls, names in attributes._PLAIN_ATTRIBUTES.items():
        samples.append((cls, names))
    samples.append((torch.Tensor, tensor_names))
    samples.append((_Square, frozenset({"apply"})))
    return samples


def _assert_safe(value: object, where: str) -> None:
    assert not isinstance(value, RAW), f"{where} gives a raw {type(value).__name__}"
    # typing's special forms (List, Optional...): calling one only raises TypeError; a
    # program subscripts them in annotations.
    if callable(value) and id(value) not in TYPING_FORMS:
        assert isinstance(value, ADMITTED_CALLABLES), f"{where}: {type(value).__name__}"
    if isinstance(value, dict):
        assert "__builtins__" not in value, f"{where} is a dict of globals"
    if isinstance(value, Checked):
        for hidden in HIDDEN:
            assert not hasattr(value, hidden) or hidden in (
                "__class__",
                "__call__",
                "__reduce_ex__",
                "__module__",
            ), f"{where}.{hidden}"
        assert value.__name__ == value.name  # type: ignore[attr-defined]


def test_every_admitted_attribute_and_member_is_data_or_checked() -> None:
    interp = _interp()
    node = ast.Pass()
    checked = 0
    for obj, names in _samples():
        for name in sorted(names):
            if not (attributes.attribute_allowed(obj, name) or isinstance(obj, type)):
                continue
            try:
                value = interp.get_attr(obj, name, node)
            except Exception:
                continue  # the program meets an error, not a value
            _assert_safe(value, f"{type(obj).__name__}.{name}")
            checked += 1
    for path, ns in namespaces.MODULES.items():
        for name in ns.members:
            value = interp.get_attr(ns, name, node)
            _assert_safe(value, f"{path}.{name}")
            checked += 1
    for name in list(interp.builtin_table):
        _assert_safe(interp.builtin_value(name), f"builtin {name}")
        checked += 1
    assert checked > 900


def test_a_checked_exposes_nothing_of_the_real_callable() -> None:
    wrapped = _interp().get_attr("s", "format", ast.Pass())
    assert isinstance(wrapped, Checked)
    for hidden in ("__self__", "__func__", "__globals__", "__wrapped__", "__closure__"):
        assert not hasattr(wrapped, hidden), hidden
    assert wrapped.__name__ == "format"  # type: ignore[attr-defined]
    # Python's own form, with the address left out as the differential tests mask it.
    assert repr(wrapped) == "<built-in method format of str object at 0x…>"


def test_a_checked_called_after_the_run_refuses() -> None:
    assert not callables._current
    wrapped = attributes.namespace_member(torch.zeros, "zeros")
    with pytest.raises(RuntimeError, match="ended"):
        wrapped(3)


@pytest.mark.parametrize(
    "source",
    [
        "f = 'x'.format\nprint(f.__self__)\n",
        "import torch\nf = torch.zeros\nprint(f.__wrapped__)\n",
        "f = len\nprint(f.__self__)\n",
    ],
)
def test_dunder_reads_of_a_checked_are_refused(source: str) -> None:
    trace = run(source)
    assert not trace.ok and trace.error is not None
    assert trace.error.type == "ForbiddenError"

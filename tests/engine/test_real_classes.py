"""Classes as real tutorials write them: on torch.utils.data's Dataset and IterableDataset,
`class X(object):`, and methods under `@torch.no_grad()` (nanoGPT's `generate`).

Each idiom runs through gradtrace and through CPython + torch in this process, and prints
the same; what stays refused (torch's ConcatDataset, Dataset() itself, `object` as a
value, a decorated dunder) is refused with the error a program sees, and nothing of
torch's dataset classes is readable beyond what the program wrote.
"""

from __future__ import annotations

import contextlib
import io

import pytest
import torch
import torch.utils.data as tud

import gradtrace
from gradtrace.language.attributes import attribute_allowed, super_allowed
from gradtrace.language.classes import DATASET_BASES

TOY = (
    "import torch\n"
    "from torch.utils.data import Dataset, DataLoader, IterableDataset\n"
    "class Toy(Dataset):\n"
    "    def __init__(self, n=5):\n"
    "        super().__init__()\n"
    "        self.x = torch.arange(float(n))\n"
    "    def __len__(self):\n"
    "        return len(self.x)\n"
    "    def __getitem__(self, i):\n"
    "        return self.x[i], i\n"
)

IDIOMS = {
    "dataset_index_len_isinstance": TOY
    + "d = Toy()\nprint(len(d), d[3], isinstance(d, Dataset), isinstance(d, IterableDataset))\n"
    "print(issubclass(Toy, Dataset), type(d).__name__, Toy.__name__)\n",
    "dataset_module_spellings": "import torch\nimport torch.utils.data\n"
    "from torch.utils import data\n"
    "class A(data.Dataset):\n    def __len__(self):\n        return 2\n"
    "    def __getitem__(self, i):\n        return torch.tensor([i, -i])\n"
    "class B(torch.utils.data.Dataset):\n    pass\n"
    "print(next(iter(data.DataLoader(A(), batch_size=2))), isinstance(B(), data.Dataset))\n"
    "try:\n    B()[0]\nexcept NotImplementedError as e:\n    print('NotImplementedError', e)\n",
    "dataset_loader_shuffle_split": TOY + "torch.manual_seed(3)\n"
    "for xb, ib in DataLoader(Toy(7), batch_size=3, shuffle=True):\n    print(xb, ib)\n"
    "a, b = torch.utils.data.random_split(Toy(), [3, 2])\nprint(len(a), len(b), a[0])\n",
    "dataset_subclass_of_subclass": TOY + "class Shifted(Toy):\n    def __getitem__(self, i):\n"
    "        x, j = super().__getitem__(i)\n        return x + 10, j\n"
    "print(Shifted()[1], isinstance(Shifted(), Toy), isinstance(Shifted(), Dataset))\n",
    "iterable_dataset": TOY
    + "class Stream(IterableDataset):\n    def __init__(self, n):\n        self.n = n\n"
    "    def __iter__(self):\n        for i in range(self.n):\n"
    "            yield torch.tensor([i, i * i])\n"
    "for batch in DataLoader(Stream(5), batch_size=2):\n    print(batch.tolist())\n"
    "print(isinstance(Stream(1), Dataset), [t.sum().item() for t in Stream(3)])\n",
    "object_base": "class A(object):\n    def __init__(self):\n        self.x = 1\n"
    "class B(A, object):\n    pass\n"
    "print(A().x, B().x, isinstance(B(), A), type(B()).__name__)\n",
    "object_rebound": "class Base:\n    tag = 'base'\n"
    "def make(object):\n    class Inner(object):\n        pass\n    return Inner\n"
    "print(make(Base).tag)\n"
    "object = Base\nclass C(object):\n    pass\nprint(C.tag)\n"
    "del object\nclass D(object):\n    pass\nprint(isinstance(D(), Base))\n",
    "no_grad_method": "import torch\nfrom torch import nn\n"
    "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    "        self.w = nn.Parameter(torch.ones(2))\n"
    "    @torch.no_grad()\n    def generate(self, x):\n"
    "        print('grad enabled inside:', torch.is_grad_enabled())\n"
    "        return self.w * x\n"
    "    @torch.no_grad\n    def bare(self, x):\n        return self.w * x\n"
    "    @torch.inference_mode()\n    def infer(self, x):\n        return self.w * x\n"
    "m = M()\nx = torch.ones(2)\n"
    "print(m.generate(x).requires_grad, M.generate(m, x).requires_grad)\n"
    "g = m.generate\nprint(g(x).requires_grad, m.bare(x).requires_grad, (m.w * x).requires_grad)\n"
    "print(m.infer(x).is_inference(), torch.is_grad_enabled())\n",
    "program_decorator_on_method": "import functools\n"
    "def twice(f):\n    def wrapper(self, x):\n"
    "        return f(self, f(self, x))\n    return wrapper\n"
    "class P:\n    def __init__(self, k):\n        self.k = k\n"
    "    @twice\n    def add(self, x):\n        return x + self.k\n"
    "    @functools.lru_cache(maxsize=None)\n    def sq(self, n):\n        return n * n\n"
    "p = P(3)\nprint(p.add(1), P.add(p, 0), p.sq(4), p.sq(4))\n",
}


def _cpython(source: str) -> str:
    out = io.StringIO()
    grad = torch.is_grad_enabled()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<idiom>", "exec"), {"__name__": "__main__"})
    finally:
        torch.set_grad_enabled(grad)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(IDIOMS))
def test_idiom_prints_as_cpython(name: str) -> None:
    source = IDIOMS[name]
    trace = gradtrace.run(source)
    assert trace.ok, trace.error
    torch.manual_seed(0)
    assert trace.stdout == _cpython(source)


REFUSED = {
    "concat": (TOY + "print(Toy() + Toy())\n", "ForbiddenError", "ConcatDataset"),
    "concat_augmented": (TOY + "d = Toy()\nd += Toy()\n", "ForbiddenError", "ConcatDataset"),
    "chain": (
        TOY + "class S(IterableDataset):\n    def __iter__(self):\n        yield 1\nS() + S()\n",
        "ForbiddenError",
        "ConcatDataset",
    ),
    "dataset_itself": (TOY + "print(Dataset())\n", "ForbiddenError", "subclassing"),
    "super_add": (
        TOY + "class T(Toy):\n    def f(self):\n        return super().__add__(self)\nT().f()\n",
        "ForbiddenError",
        "super().__add__",
    ),
    "abc_register": (TOY + "IterableDataset.register(int)\n", "ForbiddenError", "register"),
    "object_value": ("class A(object):\n    pass\nprint(object)\n", "ForbiddenError", "object"),
    "object_rebound_int": (
        "object = int\nclass A(object):\n    pass\n",
        "ForbiddenError",
        "not on int",
    ),
    "decorated_dunder": (
        "import torch\nclass A:\n    @torch.no_grad()\n    def __len__(self):\n        return 1\n",
        "ForbiddenError",
        "define it plainly",
    ),
    "decorated_property_mix": (
        "import torch\nclass A:\n    @property\n    @torch.no_grad()\n    def v(self):\n"
        "        return 1\n",
        "ForbiddenError",
        "takes no other decorator",
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused(name: str) -> None:
    source, kind, words = REFUSED[name]
    trace = gradtrace.run(source)
    assert not trace.ok
    assert trace.error is not None
    assert trace.error.type == kind, trace.error
    assert words in trace.error.message


@pytest.mark.parametrize("base", [tud.Dataset, tud.IterableDataset])
def test_nothing_of_torchs_dataset_classes_is_readable(base: type) -> None:
    """Every name torch's class (and typing's Generic, ABCMeta) has, read off torch's
    class, a program's subclass or its instance, or through super(), is refused unless
    the program wrote it."""
    made = DATASET_BASES[base]
    # A program's class as build_class makes it: its members listed in gradtrace_members.
    mine = type(
        "Mine",
        (made,),
        {"gradtrace_members": frozenset({"own"}), "own": lambda self: 1, "__iter__": iter},
    )
    obj = mine()
    names = set(dir(base)) | set(dir(type(base))) | {"register", "_abc_impl", "_is_protocol"}
    assert attribute_allowed(obj, "own")
    for name in sorted(names - {"__name__", "__qualname__", "__class__"}):
        assert not attribute_allowed(base, name), name
        assert not attribute_allowed(mine, name), name
        assert not attribute_allowed(obj, name), name
        for klass in mine.__mro__[1:]:
            if name in klass.__dict__ and name != "__init__":
                assert not super_allowed(klass, obj, name), (klass, name)

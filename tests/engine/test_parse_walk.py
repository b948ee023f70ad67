"""The syntax check reads only some fields of each node (parse._PLANS): what it skips must
never hide a node that needs checking."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gradtrace.language.errors import ForbiddenError
from gradtrace.language.limits import Limits
from gradtrace.language.parse import _ALLOWED, _PLANS, parse_program

ROOT = Path(__file__).resolve().parents[2]
CORPUS = sorted(
    [
        *ROOT.glob("tests/programs/*.py"),
        *ROOT.glob("tests/hostile/*.py"),
        *ROOT.glob("backend/gradtrace/examples/*.py"),
    ]
)


def _nodes_in(value: object) -> list[ast.AST]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, ast.AST)]


def test_the_corpus_is_there() -> None:
    assert len(CORPUS) > 100


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_skipped_fields_hold_only_nodes_with_nothing_to_check(path: Path) -> None:
    try:
        tree = ast.parse(path.read_text())
    except (SyntaxError, RecursionError, MemoryError):
        return  # parser bombs and the like: refused before any walk
    for node in ast.walk(tree):
        plan = _PLANS.get(type(node))
        if plan is None:
            continue
        for field in type(node)._fields:
            if field in plan[2]:
                continue
            for child in _nodes_in(getattr(node, field, None)):
                assert type(child) in _ALLOWED and not type(child)._fields, (path, node, field)


def test_contexts_and_operators_are_skipped_and_names_read() -> None:
    assert _PLANS[ast.Name][2] == ()
    assert _PLANS[ast.BinOp][2] == ("left", "right")
    assert _PLANS[ast.Compare][2] == ("left", "comparators")
    assert "body" in _PLANS[ast.FunctionDef][2] and "name" not in _PLANS[ast.FunctionDef][2]


# A forbidden construct or private name in every position a node can hold one.
REFUSED = [
    "x = a._b",
    "f(_x=1)",
    "import os._x",
    "from os import _x",
    "def f(_a):\n    pass",
    "def f(*, _a=1):\n    pass",
    "def f(a=_b):\n    pass",
    "def f(*, a=_b):\n    pass",
    "def f(a: _T):\n    pass",
    "def f() -> _T:\n    pass",
    "@_d\ndef f():\n    pass",
    "global _g",
    "class _C:\n    pass",
    "class C(_B):\n    pass",
    "x: _T = 1",
    "x = _y",
    'y = f"{x._y}"',
    'y = f"{x:{y._z}}"',
    "y = [a for a in b if a._c]",
    "y = {k: v for k, v in _d}",
    "y = x[::_s]",
    "y = {_k: 1}",
    "y = [*_s]",
    "try:\n    pass\nexcept _E:\n    pass",
    "with _m:\n    pass",
    "assert x, _m",
    "raise A from _b",
    "y = lambda: _z",
    "y = a if _b else c",
    "y = not _a",
    "y = a < _b",
    "y = a and _b",
    "del x._y",
    "for _i in x:\n    pass",
    "while _w:\n    pass",
    "x += _y",
    "y = [(a := 1)]",
    "def f(a=(yield)):\n    pass",
    'y = f"{(yield)}"',
    "y = lambda: (yield)",
    "async def f():\n    pass",
]


@pytest.mark.parametrize("source", REFUSED)
def test_refused_wherever_it_stands(source: str) -> None:
    with pytest.raises(ForbiddenError):
        parse_program(source, Limits())

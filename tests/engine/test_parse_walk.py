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


# A forbidden construct or a dunder name (Python's own: a program's `_` names are its
# own and admitted) in every position a node can hold one.
REFUSED = [
    "x = a.__b__",
    "f(_x=1)",
    "import os._x",
    "from os import _x",
    "def f(__a__):\n    pass",
    "def f(*, __a__=1):\n    pass",
    "def f(a=__b__):\n    pass",
    "def f(*, a=__b__):\n    pass",
    "def f(a: __T__):\n    pass",
    "def f() -> __T__:\n    pass",
    "@__d__\ndef f():\n    pass",
    "global __g__",
    "class __C__:\n    pass",
    "class C(__B__):\n    pass",
    "x: __T__ = 1",
    "x = __y__",
    'y = f"{x.__y__}"',
    'y = f"{x:{y.__z__}}"',
    "y = [a for a in b if a.__c__]",
    "y = {k: v for k, v in __d__}",
    "y = x[::__s__]",
    "y = {__k__: 1}",
    "y = [*__s__]",
    "try:\n    pass\nexcept __E__:\n    pass",
    "with __m__:\n    pass",
    "assert x, __m__",
    "raise A from __b__",
    "y = lambda: __z__",
    "y = a if __b__ else c",
    "y = not __a__",
    "y = a < __b__",
    "y = a and __b__",
    "del x.__y__",
    "for __i__ in x:\n    pass",
    "while __w__:\n    pass",
    "x += __y__",
    "y = (__a__ := 1)",
    "async def f():\n    pass",
]


@pytest.mark.parametrize("source", REFUSED)
def test_refused_wherever_it_stands(source: str) -> None:
    with pytest.raises(ForbiddenError):
        parse_program(source, Limits())


# `yield` parses; where it cannot run (outside a generator's statements) the evaluator
# refuses it when compiling, as CPython's compiler does.
@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("def f(a=(yield)):\n    pass\n", "SyntaxError"),
        ('y = f"{(yield)}"\n', "SyntaxError"),
        ("y = lambda: (yield)\n", "ForbiddenError"),
        ("def g():\n    print((yield 1))\n", "ForbiddenError"),
        ("def g():\n    with open:\n        yield 1\n", "ForbiddenError"),
    ],
)
def test_yield_refused_where_it_cannot_run(source: str, error: str) -> None:
    import gradtrace

    trace = gradtrace.run(source)
    assert trace.error is not None and trace.error.type == error, trace.error
    assert trace.error.line is not None

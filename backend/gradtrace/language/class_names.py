"""Names a class body reads from itself: `size = hidden * layers`, `alias = method`.

CPython runs a class body top to bottom in a namespace of its own, and an expression in
the body reads a name the body bound before it from there first. Functions, lambdas and
comprehensions inside the body do not see that namespace; only what the body itself
evaluates does (a lambda's defaults, a comprehension's first iterable). A name the body
binds anywhere is the class's own: read before the body bound it, it comes from the
globals, never from an enclosing function. Those reads are found here, by their ast
nodes, when the body is compiled; the evaluator compiles each to look in the namespace of
the class being built (`Interpreter.class_namespace`), then in the globals. build_class
runs the body's statements in their order, so that the namespace holds what CPython's
would at each read.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gradtrace.language.errors import ForbiddenError

if TYPE_CHECKING:
    from gradtrace.language.runtime import Closure, Scope
    from gradtrace.language.values import UserFunction

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def direct_reads(expr: ast.expr) -> list[ast.Name]:
    """The names `expr` reads in the class body itself (not inside a nested scope)."""
    reads: list[ast.Name] = []
    stack: list[ast.AST] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                reads.append(node)
        elif isinstance(node, ast.Lambda):
            stack.extend(node.args.defaults)
            stack.extend(d for d in node.args.kw_defaults if d is not None)
        elif isinstance(node, _COMPREHENSIONS):
            stack.append(node.generators[0].iter)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return reads


def bound_in(body: list[ast.stmt]) -> set[str]:
    """The names a class body binds anywhere in it (methods, attributes, annotated
    attributes with a value)."""
    names: set[str] = set()
    for item in body:
        if isinstance(item, ast.FunctionDef):
            names.add(item.name)
        elif isinstance(item, ast.Assign):
            names.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif (
            isinstance(item, ast.AnnAssign)
            and item.value is not None
            and isinstance(item.target, ast.Name)
        ):
            names.add(item.target.id)
    return names


class ClassBody:
    """What a class body binds, as it is compiled in order. A name it binds anywhere is
    the class's own: read in the body, it comes from the class's namespace, else from
    the globals (never from an enclosing function: CPython's rule for a class's names)."""

    def __init__(self, body: list[ast.stmt]) -> None:
        self.names = bound_in(body)
        # Each name bound so far, and whether the namespace holds what the program wrote
        # (a decorated method there is Python's or torch's wrapper, not handed out).
        self.bound: dict[str, bool] = {}
        # The statements in the body's order: ("method" | "assign" | "annotated", index).
        self.order: list[tuple[str, int]] = []

    def method(self, fdef: ast.FunctionDef, index: int) -> None:
        self.bound[fdef.name] = not fdef.decorator_list
        self.order.append(("method", index))

    def assign(self, names: list[str], index: int) -> None:
        self.bound.update(dict.fromkeys(names, True))
        self.order.append(("assign", index))

    def annotated(self, name: str, has_value: bool, index: int) -> None:
        if has_value:
            self.bound[name] = True
        self.order.append(("annotated", index))

    def reads(self, expr: ast.expr, item: ast.stmt) -> list[ast.Name]:
        """The names `expr` reads from the class (its namespace, then the globals)."""
        reads = [n for n in direct_reads(expr) if n.id in self.names]
        for name in reads:
            if self.bound.get(name.id) is False:
                raise ForbiddenError(
                    f"the class body reads its decorated method `{name.id}`: define the "
                    "other name with the same decorator instead",
                    item,
                )
        return reads


@dataclass
class BodyCode:
    """A class body, compiled: what build_class runs, in `order`."""

    methods: list[tuple[ast.FunctionDef, Callable[[Scope], UserFunction], list[Closure]]]
    assignments: list[tuple[list[str], Closure]]
    annotated: list[tuple[str, Closure | None]]
    order: list[tuple[str, int]]
    # `@v.setter` (getter, deleter) methods, by index: the property's name and which.
    accessors: dict[int, tuple[str, str]] = field(default_factory=dict)


_ACCESSORS = frozenset({"setter", "getter", "deleter"})


def property_accessor(fdef: ast.FunctionDef, body: ClassBody) -> tuple[str, str] | None:
    """`@v.setter` over a method, where `v` is a method the body made earlier: the
    property's name and the accessor. Not evaluated as a decorator: the property is
    never handed to the program (build_class gives it the function)."""
    if len(fdef.decorator_list) != 1:
        return None
    deco = fdef.decorator_list[0]
    if (
        isinstance(deco, ast.Attribute)
        and deco.attr in _ACCESSORS
        and isinstance(deco.value, ast.Name)
        and body.bound.get(deco.value.id) is False  # a decorated method, made above
    ):
        if fdef.name.startswith("__") and fdef.name.endswith("__"):
            raise ForbiddenError(f"{fdef.name} may not be decorated: define it plainly", fdef)
        return deco.value.id, deco.attr
    return None

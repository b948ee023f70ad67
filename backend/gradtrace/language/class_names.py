"""Names a class body reads from itself: `size = hidden * layers`, `alias = method`.

CPython runs a class body top to bottom in a namespace of its own, and an expression in
the body reads a name the body bound before it from there first. Functions, lambdas and
comprehensions inside the body do not see that namespace; only what the body itself
evaluates does (a lambda's defaults, a comprehension's first iterable). Those reads are
found here, by their ast nodes, when the body is compiled; the evaluator compiles each to
look in the namespace of the class being built (`Interpreter.class_namespace`) before the
usual lookup.
"""

from __future__ import annotations

import ast

from gradtrace.language.errors import ForbiddenError

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


class ClassBody:
    """What a class body has bound so far, as it is compiled in order."""

    def __init__(self) -> None:
        # Each name bound, and whether the namespace holds what the program wrote (a
        # decorated method there is torch's or Python's wrapper, not handed out).
        self.bound: dict[str, bool] = {}

    def method(self, fdef: ast.FunctionDef) -> None:
        self.bound[fdef.name] = not fdef.decorator_list

    def attribute(self, name: str) -> None:
        self.bound[name] = True

    def reads(self, expr: ast.expr, item: ast.stmt) -> list[ast.Name]:
        """The names `expr` reads from the class body's namespace."""
        reads = [n for n in direct_reads(expr) if n.id in self.bound]
        for name in reads:
            if not self.bound[name.id]:
                raise ForbiddenError(
                    f"the class body reads its decorated method `{name.id}`: define the "
                    "other name with the same decorator instead",
                    item,
                )
        return reads

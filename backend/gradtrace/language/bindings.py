"""The names a function binds in its own scope, found from its source before it runs, as
CPython's compiler finds them: what makes a name local, global or nonlocal to it."""

from __future__ import annotations

import ast


def own_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a function body, not descending into nested defs or classes."""
    out: list[ast.stmt] = []
    stack = list(body)
    while stack:
        stmt = stack.pop()
        out.append(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt):
                stack.append(child)
    return out


def _bind_target(target: ast.AST, names: set[str]) -> None:
    if isinstance(target, ast.Name):
        names.add(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _bind_target(element, names)
    elif isinstance(target, ast.Starred):
        _bind_target(target.value, names)


def bound_names(body: list[ast.stmt] | list[ast.expr]) -> set[str]:
    """The names a function body (or a lambda's expression) binds in its own scope, as
    CPython's compiler finds them: assignment, for, with and except targets, imports, del,
    nested def and class names, := targets, also in what a nested def, lambda or class
    evaluates here (its decorators, defaults and bases). A comprehension's loop variables
    are its own, and := is refused inside one; async, which would bind too, is refused by
    the parser."""
    names: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Lambda)):
            if not isinstance(node, ast.Lambda):
                names.add(node.name)
            stack.extend(_evaluated_around(node))
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                _bind_target(target, names)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            _bind_target(node.target, names)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            _bind_target(node.optional_vars, names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                _bind_target(target, names)
        stack.extend(ast.iter_child_nodes(node))
    return names


def _evaluated_around(node: ast.FunctionDef | ast.ClassDef | ast.Lambda) -> list[ast.expr]:
    """What of a nested def, lambda or class runs in the scope around it, when it is made."""
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
    args = node.args
    around = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
    if isinstance(node, ast.FunctionDef):
        around.extend(node.decorator_list)
    return around

"""Parse a program with `ast` and admit only the constructs the language knows.

The check walks the tree iteratively (a hostile program cannot blow our stack) and
refuses, with the construct's own place, anything outside the allowlist: async code,
`match`, and dunder names beyond the few a program may write. Names of the
program's own things may start with `_` (`_prev`, `_backward`); an attribute starting
with `_` is admitted here and checked on the object it is read from (interpreter).
"""

from __future__ import annotations
import __future__

import ast
import re
from collections.abc import Callable
from typing import Any

from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.limits import Limits

_ALLOWED: frozenset[type[ast.AST]] = frozenset(
    {
        ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.While,
        ast.If, ast.Break, ast.Continue, ast.Pass, ast.FunctionDef, ast.Return, ast.ClassDef,
        ast.With, ast.withitem, ast.Import, ast.ImportFrom, ast.alias, ast.Delete,
        ast.Global, ast.Nonlocal, ast.Assert, ast.Raise, ast.Try, ast.ExceptHandler,
        ast.Lambda, ast.IfExp, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call,
        ast.keyword, ast.Attribute, ast.Subscript, ast.Slice, ast.Name, ast.Constant,
        ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.SetComp, ast.DictComp,
        ast.GeneratorExp, ast.comprehension, ast.JoinedStr, ast.FormattedValue,
        ast.Starred, ast.arguments, ast.arg, ast.Load, ast.Store, ast.Del, ast.Yield,
        ast.YieldFrom, ast.NamedExpr,
        ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult, ast.MatMult, ast.Div, ast.Mod,
        ast.Pow, ast.LShift, ast.RShift, ast.BitOr, ast.BitXor, ast.BitAnd, ast.FloorDiv,
        ast.Invert, ast.Not, ast.UAdd, ast.USub, ast.Eq, ast.NotEq, ast.Lt, ast.LtE,
        ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn,
    }
)  # fmt: skip

_REFUSED_WHY: dict[type[ast.AST], str] = {
    ast.AsyncFunctionDef: "async functions are",
    ast.Await: "`await` is",
    ast.AsyncFor: "`async for` is",
    ast.AsyncWith: "`async with` is",
    ast.Match: "match statements are",
}


# The dunder methods a program's class may define: Python calls them, and each runs the
# program's own code through the evaluator. Never those that change how objects are made,
# found or torn down (__new__, __getattribute__, __getattr__, __setattr__, __del__,
# __init_subclass__, __set_name__, __get__, __set__, __class_getitem__, __reduce__...).
DEFINABLE_DUNDERS = frozenset(
    """
__init__ __call__ __repr__ __str__ __len__ __getitem__ __setitem__ __delitem__ __iter__
__next__ __contains__ __bool__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__
__enter__ __exit__ __post_init__ __neg__ __pos__ __abs__ __add__ __radd__ __iadd__ __sub__ __rsub__
__isub__ __mul__ __rmul__ __imul__ __truediv__ __rtruediv__ __itruediv__ __floordiv__
__rfloordiv__ __ifloordiv__ __mod__ __rmod__ __pow__ __rpow__ __ipow__ __matmul__
__rmatmul__ __imatmul__ __float__ __int__
""".split()
)
# Dunder attributes a program may read (on what each is checked at run time).
READABLE_DUNDERS = frozenset({"__init__", "__name__", "__qualname__", "__class__"})
# Read, never written: a module's version (`torch.__version__`, `np.__version__`), a
# plain str member of those Namespaces only (anything else has no such attribute).
LOADED_DUNDERS = frozenset({"__version__"})


class _Place(ast.AST):
    """A bare source position for errors about the whole text (length, parser depth)."""

    def __init__(self, line: int) -> None:
        super().__init__()
        self.lineno = line
        self.col_offset = 0
        self.end_lineno = line
        self.end_col_offset = 1


def is_dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _refused_name(name: str) -> bool:
    """A name a program may not bind or read: dunders (but `__name__`, the module's)."""
    return is_dunder(name) and name != "__name__"


def parse_program(source: str, limits: Limits) -> ast.Module:
    """Parse and check `source`; raise SyntaxError, ForbiddenError or LimitError."""
    if len(source) > limits.source_chars:
        # Point at the line where the program crosses the limit.
        line = source.count("\n", 0, limits.source_chars) + 1
        raise LimitError(
            f"the program is {len(source):,} characters long; the limit is {limits.source_chars:,}",
            _Place(line),
        )
    if not source.isascii():
        try:
            source.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ForbiddenError(
                "source code cannot contain lone surrogates (\\ud800-\\udfff)",
                _Place(source.count("\n", 0, exc.start) + 1),
            ) from None
    if "\x00" in source:
        raise ForbiddenError(
            "source code cannot contain null bytes",
            _Place(source.count("\n", 0, source.index("\x00")) + 1),
        )
    try:
        tree = ast.parse(source, mode="exec")
    except (RecursionError, MemoryError) as exc:
        raise LimitError("the program is nested too deeply to parse", _Place(1)) from exc
    check_tree(tree, limits)
    _check_future_imports(tree)
    return tree


def _check_future_imports(tree: ast.Module) -> None:
    """`from __future__ import ...` as CPython's compiler takes it: known features only,
    before any other statement but the docstring. Every feature is already on in the
    Python 3 that gradtrace speaks (annotations are never evaluated), so each is a no-op."""
    leading = True
    for index, statement in enumerate(tree.body):
        is_docstring = (
            index == 0
            and isinstance(statement, ast.Expr)
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        )
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if future:
            assert isinstance(statement, ast.ImportFrom)
            if not leading:
                raise _syntax_error(
                    "from __future__ imports must occur at the beginning of the file", statement
                )
            for alias in statement.names:
                if alias.name == "braces":
                    raise _syntax_error("not a chance", statement)  # as CPython answers
                if alias.name not in __future__.all_feature_names:
                    raise _syntax_error(f"future feature {alias.name} is not defined", statement)
        elif not is_docstring:
            leading = False


def _syntax_error(message: str, node: ast.stmt) -> SyntaxError:
    error = SyntaxError(message)
    error.lineno, error.offset = node.lineno, node.col_offset + 1
    error.end_lineno = node.end_lineno
    error.end_offset = (node.end_col_offset or node.col_offset) + 1
    return error


def check_tree(tree: ast.Module, limits: Limits) -> None:
    # Each entry carries the nearest node with a source position, for the error's place
    # (context nodes such as `Load` have none). Only the fields that can hold nodes worth
    # checking are read (_PLANS): this walk runs on every request.
    stack: list[tuple[ast.AST, int, ast.AST | None, ast.AST]] = [(tree, 0, None, tree)]
    count = 0
    max_nodes, max_depth = limits.syntax_nodes, limits.syntax_depth
    plans = _PLANS
    while stack:
        node, depth, parent, placed = stack.pop()
        kind = type(node)
        plan = plans.get(kind)
        if plan is None:
            what = _REFUSED_WHY.get(kind, f"`{kind.__name__}` syntax is")
            raise ForbiddenError(f"{what} not supported in gradtrace programs", node)
        positioned, check, fields = plan
        if positioned:
            placed = node
        count += 1
        if count > max_nodes:
            raise LimitError(f"the program has more than {max_nodes:,} syntax nodes", placed)
        if depth > max_depth:
            raise LimitError(f"the program nests deeper than {max_depth} levels", placed)
        if check is not None:
            check(node, parent)
        depth += 1
        for field in fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                stack.append((value, depth, node, placed))
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        stack.append((item, depth, node, placed))


def _check_name(node: ast.Name, parent: ast.AST | None) -> None:
    if _refused_name(node.id):
        raise ForbiddenError(f"names like {node.id} are Python's own, not a program's", node)
    if node.id == "__name__" and not isinstance(node.ctx, ast.Load):
        raise ForbiddenError("__name__ is read only", node)


def _check_attribute(node: ast.Attribute, parent: ast.AST | None) -> None:
    if node.attr == "__init__":
        if not _is_super_call(node.value):
            raise ForbiddenError("`__init__` may only be reached as super().__init__()", node)
    elif is_dunder(node.attr) and not (
        node.attr in READABLE_DUNDERS
        or (node.attr in LOADED_DUNDERS and isinstance(node.ctx, ast.Load))
        or (node.attr in DEFINABLE_DUNDERS and _is_super_call(node.value))
        # `self.__getitem__(t)`: read only where the program wrote it (attributes.py).
        or (node.attr in DEFINABLE_DUNDERS and isinstance(node.ctx, ast.Load))
    ):
        raise ForbiddenError(
            f"`.{node.attr}` is Python's own: a program may read .__name__ and .__class__ "
            "of its own classes and objects, and a module's .__version__",
            node,
        )


def _refuse_walrus_in(annotation: ast.expr | None) -> None:
    """Annotations are never evaluated here (as under `from __future__ import
    annotations`, where CPython refuses := in one): one would bind nothing."""
    if annotation is None:
        return
    for sub in ast.walk(annotation):
        if isinstance(sub, ast.NamedExpr):
            raise ForbiddenError(
                "the walrus operator (:=) cannot be used within an annotation "
                "(annotations are not evaluated)",
                sub,
            )


def _check_ann_assign(node: ast.AnnAssign, parent: ast.AST | None) -> None:
    _refuse_walrus_in(node.annotation)


def _check_function(node: ast.FunctionDef, parent: ast.AST | None) -> None:
    _refuse_walrus_in(node.returns)
    if not is_dunder(node.name):
        return
    if not isinstance(parent, ast.ClassDef):
        raise ForbiddenError(f"a function may not be named {node.name}", node)
    if node.name not in DEFINABLE_DUNDERS:
        raise ForbiddenError(
            f"a class may not define {node.name}; it may define __init__, __call__, __repr__, "
            "__len__, __getitem__, __iter__, the operators and comparisons, __hash__, "
            "__enter__ and __exit__",
            node,
        )


def _check_class(node: ast.ClassDef, parent: ast.AST | None) -> None:
    if is_dunder(node.name):
        raise ForbiddenError(f"a class may not be named {node.name}", node)
    if node.keywords:
        raise ForbiddenError("class keywords (metaclass=...) are not supported", node)


def _check_arg(node: ast.arg, parent: ast.AST | None) -> None:
    _refuse_walrus_in(node.annotation)
    if is_dunder(node.arg):
        raise ForbiddenError(f"a parameter may not be named {node.arg}", node)


def _check_keyword(node: ast.keyword, parent: ast.AST | None) -> None:
    # Private keyword arguments of torch's functions stay out of reach.
    if node.arg is not None and node.arg.startswith("_"):
        raise ForbiddenError(f"keyword names starting with '_' are not allowed: {node.arg}", node)


def _check_alias(node: ast.alias, parent: ast.AST | None) -> None:
    if node.name.startswith("_") or ".\x5f" in node.name or "._" in node.name:
        raise ForbiddenError(f"imports of private names are not allowed: {node.name}", node)
    if node.asname is not None and is_dunder(node.asname):
        raise ForbiddenError(f"a name may not be {node.asname}: `as {node.asname}`", parent or node)


def _check_import_from(node: ast.ImportFrom, parent: ast.AST | None) -> None:
    if node.module == "__future__" and not isinstance(parent, ast.Module):
        raise _syntax_error("from __future__ imports must occur at the beginning of the file", node)


def _check_handler(node: ast.ExceptHandler, parent: ast.AST | None) -> None:
    if node.name is not None and is_dunder(node.name):
        raise ForbiddenError(f"a name may not be {node.name}: `as {node.name}`", node)


def _check_constant(node: ast.Constant, parent: ast.AST | None) -> None:
    if isinstance(node.value, bytes):
        raise ForbiddenError("bytes literals are not supported", node)


def _check_scope(node: ast.Global | ast.Nonlocal, parent: ast.AST | None) -> None:
    for name in node.names:
        if is_dunder(name):
            raise ForbiddenError(f"a name may not be {name}", node)


# The kinds that carry names or values to check; every other allowed kind needs none.
_CHECKS: dict[type[ast.AST], Callable[[Any, ast.AST | None], None]] = {
    ast.Name: _check_name,
    ast.Attribute: _check_attribute,
    ast.FunctionDef: _check_function,
    ast.ClassDef: _check_class,
    ast.arg: _check_arg,
    ast.AnnAssign: _check_ann_assign,
    ast.keyword: _check_keyword,
    ast.alias: _check_alias,
    ast.ImportFrom: _check_import_from,
    ast.ExceptHandler: _check_handler,
    ast.Constant: _check_constant,
    ast.Global: _check_scope,
    ast.Nonlocal: _check_scope,
}


def _is_super_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
    )


# What the walk reads of each allowed kind. A field is skipped when Python's grammar (the
# ASDL line each node class carries as its docstring, e.g. "Name(identifier id,
# expr_context ctx)") says it holds a plain value, or only nodes with nothing to check:
# contexts and operators, every kind of which is allowed and has no fields. (So those
# nodes do not count towards the syntax-node limit either.)
_PLAIN_TYPES = frozenset({"identifier", "string", "int", "constant"})
_GRAMMAR_LINE = re.compile(r"\w+\((.*)\)\Z")


def _nothing_to_check(type_name: str) -> bool:
    base = getattr(ast, type_name, None)
    if not (isinstance(base, type) and issubclass(base, ast.AST)):
        return False
    # The parser's own kinds carry their grammar line; ast's deprecated leftovers (AugLoad,
    # Param: "Unused in Python 3") do not, and never appear in a tree.
    kinds = [k for k in base.__subclasses__() if (k.__doc__ or "").startswith(k.__name__)]
    return bool(kinds) and all(k in _ALLOWED and not k._fields for k in kinds)


def _fields_to_visit(kind: type[ast.AST]) -> tuple[str, ...]:
    match = _GRAMMAR_LINE.match(kind.__doc__ or "")
    declared = [part.split() for part in match.group(1).split(",")] if match else []
    if [name for _, name in declared] != list(kind._fields):
        return tuple(kind._fields)  # a grammar line we cannot read: visit every field
    return tuple(
        name
        for type_name, name in declared
        if not (type_name.rstrip("*?") in _PLAIN_TYPES or _nothing_to_check(type_name.rstrip("*?")))
    )


_PLANS: dict[
    type[ast.AST], tuple[bool, Callable[[Any, ast.AST | None], None] | None, tuple[str, ...]]
] = {
    kind: ("lineno" in kind._attributes, _CHECKS.get(kind), _fields_to_visit(kind))
    for kind in _ALLOWED
}

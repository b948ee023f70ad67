"""Expressions: constants, names and builtins, containers, f-strings, comprehensions.

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from gradtrace.language.builtins import (
    FORBIDDEN_BUILTINS,
    check_format_spec,
)
from gradtrace.language.callables import Checked
from gradtrace.language.class_values import CONTAINERS
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.generators import GENERATOR_REFUSAL, compile_generator_expression
from gradtrace.language.pymodules import bounded_iterable
from gradtrace.language.runtime import (
    _MISSING,
    _MODULE_CONTEXT,
    _SAFE_CALLABLES,
    _TEXT_CONVERSIONS,
    Closure,
    Scope,
    Tensor,
    _check_key,
    _FunctionContext,
    _keys,
    _place,
    locate,
)
from gradtrace.language.tensor_text import scrub, tensor_str

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def compile_expr(self: Interpreter, node: ast.expr, fc: _FunctionContext) -> Closure:
    method = getattr(self, "expr_" + type(node).__name__, None)
    if method is None:
        raise ForbiddenError(f"`{type(node).__name__}` expressions are not supported", node)
    try:
        result: Closure = method(node, fc)
    except BaseException as exc:
        _place(exc, node)
        raise
    return result


def expr_Constant(self: Interpreter, node: ast.Constant, fc: _FunctionContext) -> Closure:
    value = node.value
    if isinstance(value, str) and len(value) > self.limits.string_chars:
        raise LimitError("a string literal is over the string limit", node)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= self.int_bound:
        raise LimitError(f"an integer literal is over {self.limits.int_bits} bits", node)
    return lambda scope: value


def expr_Yield(self: Interpreter, node: ast.Yield | ast.YieldFrom, fc: _FunctionContext) -> Closure:
    # A generator's own yields are compiled by generators.py; one that reaches here is
    # outside any function, in a lambda, or inside a larger expression.
    if fc is _MODULE_CONTEXT:
        raise SyntaxError("'yield' outside function")
    raise ForbiddenError(GENERATOR_REFUSAL, node)


# Python's containers: the checked value of the class (class_values.py), called as the
# builtin of that name.
_CONTAINER_BUILTINS: dict[str, type] = {c.__name__: c for c in CONTAINERS}


def builtin_value(self: Interpreter, name: str) -> Any:
    """The builtin `name` as a program holds it (a Checked where callable), or _MISSING."""
    value = self.builtins.get(name, _MISSING)
    if value is _MISSING:
        value = self.builtin_table.get(name, _MISSING)
        if value is not _MISSING:
            made = _CONTAINER_BUILTINS.get(name)
            if made is not None:  # `list` is the class as the program holds it
                value = self.class_value(made)
            elif callable(value) and not isinstance(value, _SAFE_CALLABLES):
                value = Checked(value, None, name)
            self.builtins[name] = value
    return value


# CPython's words for a comprehension reading its function's unbound local (none from
# 3.12, where comprehensions are inlined: UnboundLocalError, as in the function itself).
_UNBOUND_FREE_VARIABLE = (
    "free variable '{name}' referenced before assignment in enclosing scope"
    if sys.version_info < (3, 11)
    else "cannot access free variable '{name}' where it is not associated with a value in "
    "enclosing scope"
    if sys.version_info < (3, 12)
    else ""
)


def expr_Name(self: Interpreter, node: ast.Name, fc: _FunctionContext) -> Closure:
    if node in self.class_reads:
        return _class_read(self, node)
    return _load_name(self, node, fc)


def _class_read(self: Interpreter, node: ast.Name) -> Closure:
    """A name of a class body read in the body: from the class's namespace, else from the
    globals (class_names.py)."""
    name = node.id
    interp = self
    outside = _load_global(self, node)

    def load_in_class(scope: Scope) -> Any:
        namespace = interp.class_namespace
        if namespace is not None:
            value = namespace.get(name, _MISSING)
            if value is not _MISSING:
                return value
        return outside(scope)

    return load_in_class


def _load_global(self: Interpreter, node: ast.Name) -> Closure:
    name = node.id
    interp = self
    self.builtin_value(name)  # load_builtin finds it in self.builtins
    globals_ = self.globals

    def load_global(scope: Scope) -> Any:
        value = globals_.vars.get(name, _MISSING)
        if value is _MISSING:
            return interp.load_builtin(name, node, scope)
        return value

    return load_global


def _load_name(self: Interpreter, node: ast.Name, fc: _FunctionContext) -> Closure:
    if node.id in fc.globals:
        return _load_global(self, node)
    name = node.id
    interp = self
    self.builtin_value(name)  # the load below finds it in self.builtins
    builtins = self.builtins

    if name in fc.locals:
        unbound = f"cannot access local variable '{name}' where it is not associated with a value"
        free = _UNBOUND_FREE_VARIABLE.format(name=name)

        def load_local(scope: Scope) -> Any:
            # The call's scope and its comprehensions' scopes, which share its function.
            func = scope.func
            s: Scope | None = scope
            while s is not None and s.func is func:
                value = s.vars.get(name, _MISSING)
                if value is not _MISSING:
                    return value
                s = s.parent
            parent = scope.parent
            if free and parent is not None and parent.func is func:
                # Read from a comprehension: before 3.12 that is a function of its own,
                # for which the name is a free variable of the enclosing one.
                raise NameError(free)
            raise UnboundLocalError(unbound)

        return load_local

    def load(scope: Scope) -> Any:
        s: Scope | None = scope
        while s is not None:
            value = s.vars.get(name, _MISSING)
            if value is not _MISSING:
                return value
            s = s.parent
        value = builtins.get(name, _MISSING)
        if value is not _MISSING:
            return value
        return interp.load_builtin(name, node, scope)

    return load


def load_builtin(self: Interpreter, name: str, node: ast.AST, scope: Scope) -> Any:
    value = self.builtin_value(name)
    if value is not _MISSING:
        return value
    if name in FORBIDDEN_BUILTINS:
        raise ForbiddenError(FORBIDDEN_BUILTINS[name], node)
    known: set[str] = set(self.builtin_table)
    s: Scope | None = scope
    while s is not None:
        known.update(s.vars)
        s = s.parent
    close = difflib.get_close_matches(name, sorted(known), n=1)
    # The suggestion goes in the hint, as CPython puts it in the traceback only: a
    # program printing the error sees CPython's message.
    hint = None
    removed_from, why = self.unbound.get(name, (None, ""))
    if removed_from is not None and _in_chain(removed_from, scope):
        hint = why
    elif name in ("np", "numpy"):
        hint = "add the import at the top: `import numpy as np`"
    elif name in ("torch", "nn", "F", "optim"):
        hint = "add the import at the top, e.g. `import torch`"
    elif close:
        hint = f"did you mean `{close[0]}`?"
    exc = NameError(f"name '{name}' is not defined")
    exc.gradtrace_hint = hint  # type: ignore[attr-defined]
    try:
        raise exc
    finally:
        del exc  # this frame, in the traceback, would hold the exception: a cycle


def _in_chain(wanted: Scope, scope: Scope | None) -> bool:
    while scope is not None:
        if scope is wanted:
            return True
        scope = scope.parent
    return False


def expr_IfExp(self: Interpreter, node: ast.IfExp, fc: _FunctionContext) -> Closure:
    test = self.compile_expr(node.test, fc)
    body = self.compile_expr(node.body, fc)
    orelse = self.compile_expr(node.orelse, fc)
    truth = self.truth
    return lambda scope: body(scope) if truth(test(scope), node.test) else orelse(scope)


def expr_Lambda(self: Interpreter, node: ast.Lambda, fc: _FunctionContext) -> Closure:
    make = self.compile_function(node, fc)
    return make


def expr_List(self: Interpreter, node: ast.List, fc: _FunctionContext) -> Closure:
    items = self.compile_items(node.elts, fc)
    return lambda scope: items(scope)


def expr_Tuple(self: Interpreter, node: ast.Tuple, fc: _FunctionContext) -> Closure:
    items = self.compile_items(node.elts, fc)
    return lambda scope: tuple(items(scope))


def expr_Set(self: Interpreter, node: ast.Set, fc: _FunctionContext) -> Closure:
    items = self.compile_items(node.elts, fc)
    return lambda scope: set(_keys(items(scope)))


def compile_items(
    self: Interpreter, elts: list[ast.expr], fc: _FunctionContext
) -> Callable[[Scope], list[Any]]:
    if not any(isinstance(e, ast.Starred) for e in elts):
        compiled = [self.compile_expr(e, fc) for e in elts]
        return lambda scope: [c(scope) for c in compiled]
    parts = [
        (True, self.compile_expr(e.value, fc))
        if isinstance(e, ast.Starred)
        else (False, self.compile_expr(e, fc))
        for e in elts
    ]
    interp = self

    def items(scope: Scope) -> list[Any]:
        out: list[Any] = []
        for starred, c in parts:
            if starred:
                # `[*it]`: C reads it to its end, an iterator through a cap.
                out.extend(bounded_iterable(interp.iterate(c(scope), elts[0])))
            else:
                out.append(c(scope))
        interp.check_size(out)
        return out

    return items


def expr_Dict(self: Interpreter, node: ast.Dict, fc: _FunctionContext) -> Closure:
    keys = [self.compile_expr(k, fc) if k is not None else None for k in node.keys]
    values = [self.compile_expr(v, fc) for v in node.values]
    interp = self

    def dict_(scope: Scope) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for k, v in zip(keys, values):
            if k is None:
                out.update(v(scope))
            else:
                key = k(scope)
                _check_key(key)
                out[key] = v(scope)
        interp.check_size(out)
        return out

    return dict_


def expr_JoinedStr(self: Interpreter, node: ast.JoinedStr, fc: _FunctionContext) -> Closure:
    parts = [self.compile_expr(v, fc) for v in node.values]
    limit = self.limits.string_chars

    def fstring(scope: Scope) -> str:
        pieces = []
        length = 0
        for p in parts:
            piece = p(scope)
            # Each field within the limit, and all of them past it: counted as they come.
            length += len(piece)
            if length > limit:
                raise LimitError(f"an f-string would make more than {limit:,} characters", node)
            pieces.append(piece)
        return "".join(pieces)

    return fstring


def expr_FormattedValue(
    self: Interpreter, node: ast.FormattedValue, fc: _FunctionContext
) -> Closure:
    value = self.compile_expr(node.value, fc)
    spec = self.compile_expr(node.format_spec, fc) if node.format_spec is not None else None
    conversion = node.conversion
    # A tensor's str() and repr() are the same text, and so is format(t, "") unless t is
    # zero-dimensional (then it formats its number).
    as_text = conversion in _TEXT_CONVERSIONS
    bare = spec is None and conversion == -1
    limit = self.limits.string_chars
    interp = self

    def formatted(scope: Scope) -> str:
        v = value(scope)
        interp.check_printable(v)
        if type(v) is Tensor and (as_text or (bare and v.dim())):
            v = tensor_str(v)  # what str(), repr() and format(v, "") give for it
        elif conversion == ord("r"):
            v = repr(v)
        elif conversion == ord("s"):
            v = str(v)
        elif conversion == ord("a"):
            v = ascii(v)
        s = spec(scope) if spec is not None else ""
        check_format_spec(s, limit)
        try:
            return scrub(format(v, s))
        except BaseException as exc:
            locate(exc, node)
            raise

    return formatted


def expr_Starred(self: Interpreter, node: ast.Starred, fc: _FunctionContext) -> Closure:
    raise SyntaxError("can't use starred expression here")


class ComprehensionStep(NamedTuple):
    """One `for target in iterable if cond...` of a comprehension, compiled."""

    iterable: Closure
    target: Callable[[Scope, Any], None]
    conds: list[Closure]
    where: ast.expr


def comprehension_steps(
    self: Interpreter, generators: list[ast.comprehension], fc: _FunctionContext
) -> list[ComprehensionStep]:
    """The `for`s of a comprehension, eager (below) or lazy (generators.py)."""
    steps = []
    for gen in generators:
        if gen.is_async:
            raise ForbiddenError("async comprehensions are not supported", gen.iter)
        steps.append(
            ComprehensionStep(
                self.compile_expr(gen.iter, fc),
                self.compile_target(gen.target, fc, gen.iter),
                [self.compile_expr(cond, fc) for cond in gen.ifs],
                gen.iter,
            )
        )
    return steps


def _compile_comprehension(
    self: Interpreter,
    generators: list[ast.comprehension],
    fc: _FunctionContext,
    emit: Callable[[Scope], None],
) -> Callable[[Scope], None]:
    interp = self
    limit = self.limits.loop_iterations
    steps = comprehension_steps(self, generators, fc)

    # One closure per generator, each calling the next: no closure refers to itself, so
    # nothing here keeps the compiled program alive in a reference cycle.
    def level(step: ComprehensionStep, inner: Callable[[Scope], None]) -> Callable[[Scope], None]:
        iter_expr, target, conds, where = step

        def run(scope: Scope) -> None:
            count = 0
            for item in interp.iterate(iter_expr(scope), where):
                count += 1
                if count > limit:
                    raise LimitError(f"a comprehension ran more than {limit:,} iterations", where)
                interp.steps += 1
                if interp.steps & 255 == 0:
                    interp.tick()
                target(scope, item)
                if not conds or all(interp.truth(c(scope), where) for c in conds):
                    inner(scope)

        return run

    run = emit
    for step in reversed(steps):
        run = level(step, run)
    return run


def expr_NamedExpr(self: Interpreter, node: ast.NamedExpr, fc: _FunctionContext) -> Closure:
    """`(name := value)`: binds `name` where an assignment in its place would, and is
    the value."""
    if self.walrus_refusal is not None:
        raise ForbiddenError(self.walrus_refusal, node)
    value = self.compile_expr(node.value, fc)
    store = self.compile_target(node.target, fc, node)

    def named(scope: Scope) -> Any:
        result = value(scope)
        store(scope, result)
        return result

    return named


# Where CPython binds a name that the evaluator's scopes place elsewhere.
IN_COMPREHENSION = (
    "the walrus operator (:=) inside a comprehension is not supported (CPython binds it in "
    "the function around it): bind the name in a for loop of its own"
)
IN_CLASS_BODY = (
    "the walrus operator (:=) in a class body is not supported: assign the class "
    "attribute, or the name before the class"
)


@contextlib.contextmanager
def walrus_context(self: Interpreter, refusal: str | None) -> Iterator[None]:
    """Compile under `refusal` (None: a function's own body, where := binds a local)."""
    outer = self.walrus_refusal
    self.walrus_refusal = refusal
    try:
        yield
    finally:
        self.walrus_refusal = outer


def _in_comprehension(self: Interpreter) -> contextlib.AbstractContextManager[None]:
    return walrus_context(self, IN_COMPREHENSION)


def expr_ListComp(self: Interpreter, node: ast.ListComp, fc: _FunctionContext) -> Closure:
    with _in_comprehension(self):
        return self._sequence_comprehension(node, fc, list)


def expr_GeneratorExp(self: Interpreter, node: ast.GeneratorExp, fc: _FunctionContext) -> Closure:
    with _in_comprehension(self):
        return compile_generator_expression(self, node, fc)


def expr_SetComp(self: Interpreter, node: ast.SetComp, fc: _FunctionContext) -> Closure:
    with _in_comprehension(self):
        return self._sequence_comprehension(node, fc, set)


def _sequence_comprehension(
    self: Interpreter,
    node: ast.ListComp | ast.SetComp,
    fc: _FunctionContext,
    kind: type,
) -> Closure:
    element = self.compile_expr(node.elt, fc)

    def emit(scope: Scope) -> None:
        scope.ret.append(element(scope))

    run = self._compile_comprehension(node.generators, fc, emit)
    interp = self

    def comprehension(scope: Scope) -> Any:
        inner = Scope({}, scope, scope.func)
        inner.ret = []
        run(inner)
        result = inner.ret if kind is list else kind(_keys(inner.ret))
        interp.check_size(result)
        return result

    return comprehension


def expr_DictComp(self: Interpreter, node: ast.DictComp, fc: _FunctionContext) -> Closure:
    with _in_comprehension(self):
        return _dict_comprehension(self, node, fc)


def _dict_comprehension(self: Interpreter, node: ast.DictComp, fc: _FunctionContext) -> Closure:
    key = self.compile_expr(node.key, fc)
    value = self.compile_expr(node.value, fc)

    def emit(scope: Scope) -> None:
        k = key(scope)
        _check_key(k)
        scope.ret[k] = value(scope)

    run = self._compile_comprehension(node.generators, fc, emit)
    interp = self

    def comprehension(scope: Scope) -> Any:
        inner = Scope({}, scope, scope.func)
        inner.ret = {}
        run(inner)
        interp.check_size(inner.ret)
        return inner.ret

    return comprehension

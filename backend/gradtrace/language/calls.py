"""Call expressions: `f(...)`, `obj.name(...)`, `super()`, and their arguments, compiled
into closures that hand every call to the one checked path (call_path.invoke).

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gradtrace.language.callables import Checked
from gradtrace.language.errors import ForbiddenError
from gradtrace.language.pymodules import bounded_iterable
from gradtrace.language.runtime import (
    _MISSING,
    Closure,
    Scope,
    Tensor,
    _FunctionContext,
    _owner_of,
    _unchecked,
    locate,
)
from gradtrace.language.values import (
    Namespace,
    SuperProxy,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def expr_Call(self: Interpreter, node: ast.Call, fc: _FunctionContext) -> Closure:
    args_fn = self.compile_arguments(node, fc)
    label = self.segment(node)
    interp = self
    func = node.func

    if isinstance(func, ast.Name) and func.id == "super":
        return self.compile_super(node, fc, args_fn)

    if isinstance(func, ast.Attribute):
        obj_expr = self.compile_expr(func.value, fc)
        attr = func.attr

        # The fast path of `obj.name(...)`: no Checked is made, but the very checks a
        # Checked's call runs are run (call_tensor_method, call_method, invoke).
        def method_call(scope: Scope) -> Any:
            obj = obj_expr(scope)
            args, kwargs = args_fn(scope)
            interp.here = node
            try:
                if isinstance(obj, Tensor):
                    return interp.call_tensor_method(obj, attr, args, kwargs, node, label)
                kind = type(obj)
                if kind is Namespace:
                    member = obj.members.get(attr, _MISSING)
                    if member is _MISSING:
                        raise interp.missing_member(obj, attr, func)
                    return interp.invoke(member, args, kwargs, node, label, attr)
                if kind is SuperProxy or kind is Checked or isinstance(obj, type):
                    target = interp.get_attr(obj, attr, func)
                    return interp.invoke(target, args, kwargs, node, label, attr)
                value = interp.read_attr(obj, attr, func)
                if _unchecked(value):
                    return interp.call_method(obj, attr, value, args, kwargs, node, label)
                return interp.invoke(value, args, kwargs, node, label, attr)
            except BaseException as exc:
                locate(exc, node)
                raise

        return method_call

    callee = self.compile_expr(func, fc)
    name = func.id if isinstance(func, ast.Name) else ""

    def call(scope: Scope) -> Any:
        target = callee(scope)
        args, kwargs = args_fn(scope)
        interp.here = node
        try:
            return interp.invoke(target, args, kwargs, node, label, name)
        except BaseException as exc:
            locate(exc, node)
            raise

    return call


def compile_arguments(
    self: Interpreter, node: ast.Call, fc: _FunctionContext
) -> Callable[[Scope], tuple[tuple[Any, ...], dict[str, Any]]]:
    simple_args = not any(isinstance(a, ast.Starred) for a in node.args)
    positional = [
        (
            isinstance(a, ast.Starred),
            self.compile_expr(a.value if isinstance(a, ast.Starred) else a, fc),
        )
        for a in node.args
    ]
    keywords = [(k.arg, self.compile_expr(k.value, fc)) for k in node.keywords]
    interp = self
    if simple_args and all(k is not None for k, _ in keywords):
        plain = [c for _, c in positional]
        if not keywords:
            empty: dict[str, Any] = {}
            return lambda scope: (tuple([c(scope) for c in plain]), empty)
        return lambda scope: (
            tuple([c(scope) for c in plain]),
            {k: c(scope) for k, c in keywords},  # type: ignore[misc]
        )

    def arguments(scope: Scope) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args: list[Any] = []
        for starred, c in positional:
            if starred:
                # `f(*it)`: C reads it to its end, an iterator through a cap.
                args.extend(bounded_iterable(interp.iterate(c(scope), node)))
            else:
                args.append(c(scope))
        kwargs: dict[str, Any] = {}
        for k, c in keywords:
            if k is None:
                extra = c(scope)
                if not isinstance(extra, dict):
                    raise TypeError("argument after ** must be a mapping")
                for key in extra:
                    if not isinstance(key, str) or key.startswith("_"):
                        raise ForbiddenError(
                            "keyword names starting with '_' are not allowed", node
                        )
                kwargs.update(extra)
            else:
                kwargs[k] = c(scope)
        interp.check_size(args)
        return tuple(args), kwargs

    return arguments


def compile_super(
    self: Interpreter, node: ast.Call, fc: _FunctionContext, args_fn: Callable[[Scope], Any]
) -> Closure:
    def super_(scope: Scope) -> SuperProxy:
        args, _ = args_fn(scope)
        if len(args) == 2:
            cls, obj = args
            if not isinstance(cls, type):
                raise TypeError("super() argument 1 must be a type")
            return SuperProxy(cls, obj)
        if args:
            raise TypeError("super() takes 0 or 2 arguments here")
        # The innermost enclosing function that is a method of a class of the program.
        func: UserFunction | None = None
        owner: type | None = None
        s: Scope | None = scope
        while owner is None and s is not None:
            func = s.func
            s = s.parent
            if func is not None:
                owner = _owner_of(func)
        if func is None or owner is None or not func.params.names:
            raise RuntimeError("super(): no arguments (use it inside a method)")
        first = func.params.names[0]
        holder: Scope | None = scope
        while holder is not None and first not in holder.vars:
            holder = holder.parent
        if holder is None:
            raise RuntimeError("super(): no arguments")
        return SuperProxy(owner, holder.vars[first])

    return super_

"""A program's exceptions: `raise`, and `try` with its handlers, `else` and `finally`,
each compiled into a closure `f(scope)` (methods of the Interpreter, bound in
interpreter.py, as statements.py's are)."""

from __future__ import annotations

import ast
import contextlib
from typing import TYPE_CHECKING, Any

from gradtrace.language import sizes
from gradtrace.language.errors import LimitError, ProgramError
from gradtrace.language.runtime import _UNSWALLOWED, Closure, Scope, _FunctionContext, _store

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def stmt_Raise(self: Interpreter, node: ast.Raise, fc: _FunctionContext) -> Closure:
    exc_expr = self.compile_expr(node.exc, fc) if node.exc is not None else None
    interp = self

    def raise_(scope: Scope) -> None:
        if exc_expr is None:
            if not interp.handling:
                raise RuntimeError("No active exception to reraise")
            raise interp.handling[-1]
        exc = exc_expr(scope)
        if isinstance(exc, type) and issubclass(exc, Exception):
            exc = exc()
        if not isinstance(exc, Exception) or isinstance(exc, ProgramError):
            raise TypeError("exceptions must derive from BaseException")
        sizes.check_nesting(exc.args)  # its message is written from them
        chars = sum(len(a) for a in exc.args if type(a) is str)
        if chars > interp.limits.string_chars:
            raise LimitError(
                f"an exception message of {chars:,} characters is over the string limit"
            )
        try:
            raise exc
        finally:
            # This frame, in the exception's traceback, would hold it (and every frame
            # below, the scopes and the interpreter) in a cycle.
            del exc

    return raise_


def _unbound_at_handler_end(name: str, handler: ast.ExceptHandler) -> str:
    return (
        f"`{name}` is unbound when its `except ... as {name}` block (line {handler.lineno}) "
        "ends: keep it under another name"
    )


def stmt_Try(self: Interpreter, node: ast.Try, fc: _FunctionContext) -> Closure:
    body = self.compile_block(node.body, fc)
    handlers = [
        (
            self.compile_expr(h.type, fc) if h.type is not None else None,
            self.compile_target(_store(h.name), fc, h) if h.name else None,
            self.compile_block(h.body, fc),
            h,
        )
        for h in node.handlers
    ]
    # Python unbinds `except E as e` when the handler ends (a `global` or `nonlocal` e
    # where that lives): the exception's traceback holds the frames that hold the scope,
    # so a kept `e` would tie them in a cycle.
    unbinds = [
        (self.compile_unbind(h.name, fc), h.name, _unbound_at_handler_end(h.name, h))
        if h.name
        else None
        for h in node.handlers
    ]
    orelse = self.compile_block(node.orelse, fc)
    final = self.compile_block(node.finalbody, fc)
    interp = self

    def attempt(scope: Scope) -> Any:
        try:
            result = body(scope)
        except _UNSWALLOWED:
            # MemoryError too: C ran out of memory, and a program that caught it could
            # try again and again at the edge of the process's memory.
            raise
        except Exception as exc:
            for (type_expr, target, handler_body, _handler), unbinding in zip(handlers, unbinds):
                if type_expr is not None:
                    wanted = type_expr(scope)
                    classes = wanted if isinstance(wanted, tuple) else (wanted,)
                    if not all(
                        isinstance(c, type) and issubclass(c, BaseException) for c in classes
                    ):
                        raise TypeError(
                            "catching classes that do not inherit from BaseException is not allowed"
                        ) from None
                    if not isinstance(exc, classes):
                        continue
                if target is not None:
                    target(scope, exc)
                interp.handling.append(exc)
                try:
                    return handler_body(scope)
                finally:
                    interp.handling.pop()
                    if target is not None and unbinding is not None:
                        unbind, name, why = unbinding
                        target(scope, None)  # as Python does: `e = None; del e`
                        removed = unbind(scope)
                        if removed is not None:
                            interp.unbound[name] = (removed, why)
            raise
        if result is not None:
            return result
        return orelse(scope)

    def try_(scope: Scope) -> Any:
        try:
            result = attempt(scope)
        except _UNSWALLOWED:
            # A refusal or a spent budget ends the program: the finally block runs, but
            # neither its return/break nor an error of its own may swallow it.
            with contextlib.suppress(Exception):  # the first error is the one reported
                final(scope)
            raise
        except BaseException:
            r = final(scope)
            if r is not None:
                return r  # Python's own semantics: finally's return wins
            raise
        r = final(scope)
        return result if r is None else r

    return try_

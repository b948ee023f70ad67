"""Statements: each kind of statement compiled into a closure `f(scope)` that runs it
and returns None or a control signal (BREAK, CONTINUE, RETURN).

Each function is a method of the Interpreter (bound in interpreter.py).
"""

from __future__ import annotations

import ast
import collections
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import torch.utils.data as tud
from torch import nn

from gradtrace.language import broadcasts, sizes
from gradtrace.language.arithmetic import repeat_count
from gradtrace.language.classes import ProgramObject, is_program_object, user_class_member
from gradtrace.language.dataloaders import DataLoader, check_batch
from gradtrace.language.errors import ForbiddenError, LimitError
from gradtrace.language.pymodules import check_rows
from gradtrace.language.runtime import (
    _BINOPS,
    _CONTEXT_MANAGERS,
    _INPLACE,
    _MODULE_CONTEXT,
    _OP_NAMES,
    _UNSWALLOWED,
    BREAK,
    CONTINUE,
    RETURN,
    Closure,
    Scope,
    Tensor,
    _check_key,
    _check_module_key,
    _FunctionContext,
    _place,
    locate,
)
from gradtrace.language.values import (
    Namespace,
    UserFunction,
)

if TYPE_CHECKING:
    from gradtrace.language.interpreter import Interpreter


def compile_block(self: Interpreter, stmts: list[ast.stmt], fc: _FunctionContext) -> Closure:
    compiled = [self.compile_stmt(s, fc) for s in stmts]
    interp = self
    limits = self.limits
    if fc is not _MODULE_CONTEXT:
        return _function_block(self, stmts, compiled)

    def block(scope: Scope) -> Any:
        for stmt in compiled:
            interp.steps += 1
            if interp.steps & 255 == 0 or interp.steps > limits.steps:
                interp.tick()
            r = stmt(scope)
            if r is not None:
                return r
        return None

    return block


def _function_block(self: Interpreter, stmts: list[ast.stmt], compiled: list[Closure]) -> Closure:
    """A block of a function's body: torch's engine may run it during a backward pass (a
    hook, a custom backward), when each statement is reported to the recorder."""
    interp = self
    limits = self.limits
    rec = self.rec
    pairs = list(zip(stmts, compiled))

    def block(scope: Scope) -> Any:
        for node, stmt in pairs:
            interp.steps += 1
            if interp.steps & 255 == 0 or interp.steps > limits.steps:
                interp.tick()
            if rec.stepping:
                rec.line(node)
            r = stmt(scope)
            if r is not None:
                return r
        return None

    return block


def compile_stmt(self: Interpreter, node: ast.stmt, fc: _FunctionContext) -> Closure:
    method = getattr(self, "stmt_" + type(node).__name__, None)
    if method is None:
        raise ForbiddenError(f"`{type(node).__name__}` statements are not supported", node)
    try:
        inner: Closure = method(node, fc)
    except BaseException as exc:
        _place(exc, node)
        raise

    def stmt(scope: Scope) -> Any:
        try:
            return inner(scope)
        except BaseException as exc:
            locate(exc, node)
            raise

    return stmt


def stmt_Expr(self: Interpreter, node: ast.Expr, fc: _FunctionContext) -> Closure:
    value = self.compile_expr(node.value, fc)

    def expr_stmt(scope: Scope) -> None:
        value(scope)

    return expr_stmt


def stmt_Pass(self: Interpreter, node: ast.Pass, fc: _FunctionContext) -> Closure:
    return lambda scope: None


def stmt_Break(self: Interpreter, node: ast.Break, fc: _FunctionContext) -> Closure:
    return lambda scope: BREAK


def stmt_Continue(self: Interpreter, node: ast.Continue, fc: _FunctionContext) -> Closure:
    return lambda scope: CONTINUE


def stmt_Return(self: Interpreter, node: ast.Return, fc: _FunctionContext) -> Closure:
    if fc is _MODULE_CONTEXT:
        raise SyntaxError("'return' outside function")
    value = self.compile_expr(node.value, fc) if node.value is not None else None

    def ret(scope: Scope) -> Any:
        scope.ret = value(scope) if value is not None else None
        return RETURN

    return ret


def stmt_Assign(self: Interpreter, node: ast.Assign, fc: _FunctionContext) -> Closure:
    value = self.compile_expr(node.value, fc)
    targets = [self.compile_target(t, fc, node) for t in node.targets]
    if len(targets) == 1:
        target = targets[0]

        def assign1(scope: Scope) -> None:
            target(scope, value(scope))

        return assign1

    def assign(scope: Scope) -> None:
        v = value(scope)
        for t in targets:
            t(scope, v)

    return assign


def stmt_AnnAssign(self: Interpreter, node: ast.AnnAssign, fc: _FunctionContext) -> Closure:
    if node.value is None:
        return lambda scope: None
    value = self.compile_expr(node.value, fc)
    target = self.compile_target(node.target, fc, node)
    return lambda scope: target(scope, value(scope))


# Each operator as Python's messages write it.
_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/",
    ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "** or pow()", ast.LShift: "<<",
    ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&",
}  # fmt: skip
# `d |= other` is `d.update(other)` for these (a Counter's `|=` keeps the larger counts).
_UPDATED_BY_OR = frozenset({dict, collections.OrderedDict, collections.defaultdict})
# A Counter's augmented operators with another Counter (or a dict: Counter's own methods
# read other.items()) change it in place.
_COUNTER_OPS = frozenset({operator.add, operator.sub, operator.or_, operator.and_})
# A set's augmented operators with another set: the method that changes it in place (with
# anything else, the plain operator, which raises as CPython's does).
_SET_UPDATES = {
    operator.or_: "update",
    operator.and_: "intersection_update",
    operator.sub: "difference_update",
    operator.xor: "symmetric_difference_update",
}


def stmt_AugAssign(self: Interpreter, node: ast.AugAssign, fc: _FunctionContext) -> Closure:
    op = _INPLACE[type(node.op)]
    plain = _BINOPS[type(node.op)]
    opname = _OP_NAMES[type(node.op)] + "_"
    value = self.compile_expr(node.value, fc)
    target = node.target
    interp = self
    label = self.segment(node)
    symbol = _SYMBOLS[type(node.op)]
    unsupported = f"unsupported operand type(s) for {symbol}:"
    augmented = f"unsupported operand type(s) for {symbol.split()[0]}=:"

    def apply(current: Any, rhs: Any) -> Any:
        if isinstance(current, Tensor):
            if isinstance(rhs, Tensor):
                broadcasts.check_broadcast(opname, current, rhs, interp.limits.tensor_elements)
            interp.rec.before_inplace(current)
            before = interp.rec.node_of(current) if interp.rec.active else None
            result = op(current, rhs)
            interp.rec.inplace_result(result, node, label, before, rhs)
            return result
        if isinstance(current, np.ndarray):  # in place, as numpy does: same size
            return op(current, rhs)
        kind = type(current)
        # Python's mutable containers change in place (`b = a; a += g` changes b too),
        # each through the method that does it and that method's checks.
        if (kind is list or kind is collections.deque) and plain is operator.add:
            # extend: a generator, a range or a tensor's rows (call_method checks the size
            # the container grew to, as it does after every extend and update).
            interp.call_method(current, "extend", None, (rhs,), {}, node, opname)
            return current
        if kind is collections.Counter and plain in _COUNTER_OPS and isinstance(rhs, dict):
            # Counter's own in-place operators: they add or compare the shared counts in
            # C, checked as `c + d` is.
            broadcasts.check_counters(opname, current, rhs, interp.limits.tensor_elements)
            result = op(current, rhs)
            interp.check_size(result)
            return result
        if (
            (kind is list or kind is collections.deque)
            and plain is operator.mul
            and repeat_count(rhs) is not None
        ):
            # A repeat in place (by an int, a numpy integer, a one-element integer tensor);
            # by anything else Python tries the other operand first (an array broadcasts
            # the list into an array), as `xs * other` does, through its checks.
            interp._check_repeat(current, rhs)
            result = op(current, rhs)
            interp.check_size(result)
            return result
        if kind in _UPDATED_BY_OR and plain is operator.or_:
            # dict.update: a mapping or (key, value) pairs, a generator of them too.
            interp.call_method(current, "update", None, (rhs,), {}, node, opname)
            return current
        if kind is set and plain in _SET_UPDATES and isinstance(rhs, (set, frozenset)):
            interp.call_method(current, _SET_UPDATES[plain], None, (rhs,), {}, node, opname)
            interp.check_size(current)
            return current
        if is_program_object(current):
            # The program's own class: its __iadd__ (or, without one, __add__ / __radd__),
            # as Python's `a += b` calls them; each runs the program's code.
            return interp.binary(op, current, rhs, node, opname)
        try:
            return interp.binary(plain, current, rhs, node, opname)
        except TypeError as exc:
            # Python names the augmented operator: "unsupported operand type(s) for |=".
            if exc.args and isinstance(exc.args[0], str) and exc.args[0].startswith(unsupported):
                exc.args = (augmented + exc.args[0][len(unsupported) :], *exc.args[1:])
            raise

    if isinstance(target, ast.Name):
        load = self.compile_expr(ast.Name(id=target.id, ctx=ast.Load()), fc)
        store = self.compile_target(target, fc, node)

        def aug_name(scope: Scope) -> None:
            store(scope, apply(load(scope), value(scope)))

        return aug_name
    if isinstance(target, ast.Attribute):
        obj_expr = self.compile_expr(target.value, fc)
        attr = target.attr

        def aug_attr(scope: Scope) -> None:
            obj = obj_expr(scope)
            current = interp.get_attr(obj, attr, target)
            result = apply(current, value(scope))
            interp.set_attr(obj, attr, result, target)

        return aug_attr
    if isinstance(target, ast.Subscript):
        obj_expr = self.compile_expr(target.value, fc)
        index_expr = self.compile_expr(target.slice, fc)

        def aug_item(scope: Scope) -> None:
            obj = obj_expr(scope)
            index = index_expr(scope)
            if isinstance(obj, Tensor):
                if not isinstance(index, (int, slice)):
                    sizes.check_index(obj, index, interp.limits.tensor_elements)
                interp.rec.before_inplace(obj)
            else:
                _check_key(index)
                if isinstance(obj, nn.Module):
                    _check_module_key(obj, index)
            current = obj[index]
            result = apply(current, value(scope))
            interp.set_item(obj, index, result, target)

        return aug_item
    raise ForbiddenError("this augmented assignment target is not supported", node)


def stmt_If(self: Interpreter, node: ast.If, fc: _FunctionContext) -> Closure:
    test = self.compile_expr(node.test, fc)
    body = self.compile_block(node.body, fc)
    orelse = self.compile_block(node.orelse, fc)
    truth = self.truth

    def if_(scope: Scope) -> Any:
        if truth(test(scope), node.test):
            return body(scope)
        return orelse(scope)

    return if_


def truth(self: Interpreter, value: Any, node: ast.AST) -> bool:
    try:
        return bool(value)
    except BaseException as exc:
        locate(exc, node)
        raise


def stmt_While(self: Interpreter, node: ast.While, fc: _FunctionContext) -> Closure:
    test = self.compile_expr(node.test, fc)
    body = self.compile_block(node.body, fc)
    orelse = self.compile_block(node.orelse, fc)
    limit = self.limits.loop_iterations
    truth = self.truth

    rec = self.rec
    line = node.lineno

    def while_(scope: Scope) -> Any:
        count = 0
        outer = rec.loops
        rec.loops = (*outer, (line, 0))
        try:
            while truth(test(scope), node.test):
                rec.loops = (*outer, (line, count))
                count += 1
                if count > limit:
                    raise LimitError(f"a loop ran more than {limit:,} iterations", node)
                r = body(scope)
                if r is BREAK:
                    return None
                if r is RETURN:
                    return r
        finally:
            rec.loops = outer
        return orelse(scope)

    return while_


def stmt_For(self: Interpreter, node: ast.For, fc: _FunctionContext) -> Closure:
    iterable = self.compile_expr(node.iter, fc)
    target = self.compile_target(node.target, fc, node)
    body = self.compile_block(node.body, fc)
    orelse = self.compile_block(node.orelse, fc)
    limit = self.limits.loop_iterations
    interp = self

    rec = self.rec
    line = node.lineno

    def for_(scope: Scope) -> Any:
        items = interp.iterate(iterable(scope), node.iter)
        count = 0
        outer = rec.loops
        rec.loops = (*outer, (line, 0))
        try:
            for item in items:
                rec.loops = (*outer, (line, count))
                count += 1
                if count > limit:
                    raise LimitError(f"a loop ran more than {limit:,} iterations", node)
                target(scope, item)
                r = body(scope)
                if r is BREAK:
                    return None
                if r is RETURN:
                    return r
        finally:
            rec.loops = outer
        return orelse(scope)

    return for_


def iterate(self: Interpreter, value: Any, node: ast.AST) -> Any:
    if isinstance(value, range) and len(value) > self.limits.loop_iterations:
        raise LimitError(
            f"a loop over {len(value):,} items is over the loop limit "
            f"({self.limits.loop_iterations:,})",
            node,
        )
    if isinstance(value, Tensor):
        check_rows(value)  # torch unbinds every row before the first is read
        if self.rec.active:
            return self._tensor_rows(value, node)
    if isinstance(value, (UserFunction, Namespace)):
        raise TypeError(f"'{type(value).__name__}' object is not iterable")
    if isinstance(value, tud.DataLoader) and not isinstance(value, DataLoader):
        return self._checked_batches(value)
    return value


def _checked_batches(self: Interpreter, loader: Any) -> Any:
    """A DataLoader's batches are made by torch (collate): checked as they come. gradtrace's
    own DataLoader checks them itself, for every consumer (a `for`, enumerate, zip, list,
    next(iter(...))), and is not wrapped again; this is for any other DataLoader, checked
    by the same function."""
    for batch in loader:
        check_batch(batch)
        yield batch


def _tensor_rows(self: Interpreter, value: Tensor, node: ast.AST) -> Any:
    label = self.segment(node)
    for row in value:
        self.rec.result(row, node, label, (value,))
        yield row


def stmt_With(self: Interpreter, node: ast.With, fc: _FunctionContext) -> Closure:
    items = [
        (
            self.compile_expr(item.context_expr, fc),
            self.compile_target(item.optional_vars, fc, node) if item.optional_vars else None,
            item.context_expr,
        )
        for item in node.items
    ]
    body = self.compile_block(node.body, fc)

    def with_(scope: Scope) -> Any:
        entered = []
        try:
            for expr, target, where in items:
                manager = expr(scope)
                if not isinstance(manager, _CONTEXT_MANAGERS) and not (
                    isinstance(manager, ProgramObject)
                    and user_class_member(type(manager), "__enter__")
                    and user_class_member(type(manager), "__exit__")
                ):
                    raise ForbiddenError(
                        "`with` supports torch.no_grad(), torch.enable_grad(), "
                        "torch.set_grad_enabled(...), torch.inference_mode(), "
                        "torch.autograd.graph.saved_tensors_hooks(...) and save_on_cpu(), "
                        "torch.autograd.forward_ad.dual_level(), "
                        "and your own classes that define __enter__ and __exit__",
                        where,
                    )
                value = manager.__enter__()  # type: ignore[union-attr]
                entered.append(manager)
                if target is not None:
                    target(scope, value)
            result = body(scope)
        except BaseException as exc:
            suppressed = False
            while entered:
                manager = entered.pop()
                if suppressed:
                    manager.__exit__(None, None, None)  # type: ignore[union-attr]
                elif manager.__exit__(type(exc), exc, exc.__traceback__):  # type: ignore[union-attr]
                    # A class of the program may suppress what its body raised (as
                    # contextlib.suppress does); never a refusal or a spent budget.
                    suppressed = not isinstance(exc, _UNSWALLOWED) and isinstance(
                        manager, ProgramObject
                    )
            if not suppressed:
                raise
            return None
        while entered:
            entered.pop().__exit__(None, None, None)  # type: ignore[union-attr]
        return result

    return with_


def stmt_Delete(self: Interpreter, node: ast.Delete, fc: _FunctionContext) -> Closure:
    deleters: list[Closure] = []
    for target in node.targets:
        if isinstance(target, ast.Name):
            name = target.id
            unbind = self.compile_unbind(name, fc)

            def del_name(
                scope: Scope,
                name: str = name,
                unbind: Callable[[Scope], Scope | None] = unbind,
                why: str = f"`{name}` was deleted by `del` on line {target.lineno}",
            ) -> None:
                removed = unbind(scope)
                if removed is None:
                    raise NameError(f"name '{name}' is not defined")
                self.unbound[name] = (removed, why)

            deleters.append(del_name)
        elif isinstance(target, ast.Subscript):
            obj = self.compile_expr(target.value, fc)
            index = self.compile_expr(target.slice, fc)

            def del_item(scope: Scope, obj: Closure = obj, index: Closure = index) -> None:
                container = obj(scope)
                if not isinstance(container, (list, dict)):
                    raise TypeError(
                        f"'{type(container).__name__}' object doesn't support item deletion"
                    )
                key = index(scope)
                _check_key(key)
                del container[key]

            deleters.append(del_item)
        elif isinstance(target, ast.Attribute):
            owner = self.compile_expr(target.value, fc)

            def del_attr(
                scope: Scope, owner: Closure = owner, where: ast.Attribute = target
            ) -> None:
                self.del_attr(owner(scope), where.attr, where)

            deleters.append(del_attr)
        else:
            raise ForbiddenError("only names, items and attributes can be deleted", target)

    def delete(scope: Scope) -> None:
        for d in deleters:
            d(scope)

    return delete


def stmt_Global(self: Interpreter, node: ast.Global, fc: _FunctionContext) -> Closure:
    return lambda scope: None


def stmt_Nonlocal(self: Interpreter, node: ast.Nonlocal, fc: _FunctionContext) -> Closure:
    return lambda scope: None


def stmt_Assert(self: Interpreter, node: ast.Assert, fc: _FunctionContext) -> Closure:
    test = self.compile_expr(node.test, fc)
    msg = self.compile_expr(node.msg, fc) if node.msg is not None else None
    truth = self.truth

    def assert_(scope: Scope) -> None:
        if not truth(test(scope), node.test):
            raise AssertionError(msg(scope)) if msg is not None else AssertionError()

    return assert_
